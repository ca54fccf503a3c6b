package io.weir.handler.codec.http.websocketx;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;

/**
 * The first (or only) frame of a binary message (opcode 0x2); later fragments are {@link ContinuationWebSocketFrame}s.
 */
public final class BinaryWebSocketFrame extends WebSocketFrame {

    /** An empty, final BinaryWebSocketFrame. */
    public BinaryWebSocketFrame() {
        this(true, 0, Unpooled.EMPTY_BUFFER);
    }

    /** A final BinaryWebSocketFrame owning {@code payload}. */
    public BinaryWebSocketFrame(ByteBuf payload) {
        this(true, 0, payload);
    }

    /**
     * A BinaryWebSocketFrame owning {@code payload}.
     *
     * @throws IllegalArgumentException if {@code rsv} is outside 0..7
     */
    public BinaryWebSocketFrame(boolean finalFragment, int rsv, ByteBuf payload) {
        super(finalFragment, rsv, payload);
    }

    @Override
    public int opcode() {
        return WebSocketOpcodes.BINARY;
    }

    @Override
    public BinaryWebSocketFrame replace(ByteBuf content) {
        return new BinaryWebSocketFrame(isFinalFragment(), rsv(), content);
    }
}
