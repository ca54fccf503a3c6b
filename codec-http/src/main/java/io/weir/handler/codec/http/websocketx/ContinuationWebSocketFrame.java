package io.weir.handler.codec.http.websocketx;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;

/**
 * A later fragment of a text or binary message (opcode 0x0, RFC 6455 §5.4).
 */
public final class ContinuationWebSocketFrame extends WebSocketFrame {

    /** An empty, final ContinuationWebSocketFrame. */
    public ContinuationWebSocketFrame() {
        this(true, 0, Unpooled.EMPTY_BUFFER);
    }

    /** A final ContinuationWebSocketFrame owning {@code payload}. */
    public ContinuationWebSocketFrame(ByteBuf payload) {
        this(true, 0, payload);
    }

    /**
     * A ContinuationWebSocketFrame owning {@code payload}.
     *
     * @throws IllegalArgumentException if {@code rsv} is outside 0..7
     */
    public ContinuationWebSocketFrame(boolean finalFragment, int rsv, ByteBuf payload) {
        super(finalFragment, rsv, payload);
    }

    @Override
    public int opcode() {
        return WebSocketOpcodes.CONTINUATION;
    }

    @Override
    public ContinuationWebSocketFrame replace(ByteBuf content) {
        return new ContinuationWebSocketFrame(isFinalFragment(), rsv(), content);
    }
}
