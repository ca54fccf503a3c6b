package io.weir.handler.codec.http.websocketx;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;

/**
 * A pong (opcode 0xA, RFC 6455 §5.5.3): the answer to a ping, or an unsolicited heartbeat; at most 125 bytes, never
 * fragmented.
 */
public final class PongWebSocketFrame extends WebSocketFrame {

    /** An empty, final PongWebSocketFrame. */
    public PongWebSocketFrame() {
        this(true, 0, Unpooled.EMPTY_BUFFER);
    }

    /** A final PongWebSocketFrame owning {@code payload}. */
    public PongWebSocketFrame(ByteBuf payload) {
        this(true, 0, payload);
    }

    /**
     * A PongWebSocketFrame owning {@code payload}.
     *
     * @throws IllegalArgumentException if {@code rsv} is outside 0..7
     */
    public PongWebSocketFrame(boolean finalFragment, int rsv, ByteBuf payload) {
        super(finalFragment, rsv, payload);
    }

    @Override
    public int opcode() {
        return WebSocketOpcodes.PONG;
    }

    @Override
    public PongWebSocketFrame replace(ByteBuf content) {
        return new PongWebSocketFrame(isFinalFragment(), rsv(), content);
    }
}
