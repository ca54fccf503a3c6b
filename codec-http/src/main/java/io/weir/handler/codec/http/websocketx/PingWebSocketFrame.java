package io.weir.handler.codec.http.websocketx;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;

/**
 * A ping (opcode 0x9, RFC 6455 §5.5.2): at most 125 bytes of application data, never fragmented; the peer answers
 * with a pong carrying the same data.
 */
public final class PingWebSocketFrame extends WebSocketFrame {

    /** An empty, final PingWebSocketFrame. */
    public PingWebSocketFrame() {
        this(true, 0, Unpooled.EMPTY_BUFFER);
    }

    /** A final PingWebSocketFrame owning {@code payload}. */
    public PingWebSocketFrame(ByteBuf payload) {
        this(true, 0, payload);
    }

    /**
     * A PingWebSocketFrame owning {@code payload}.
     *
     * @throws IllegalArgumentException if {@code rsv} is outside 0..7
     */
    public PingWebSocketFrame(boolean finalFragment, int rsv, ByteBuf payload) {
        super(finalFragment, rsv, payload);
    }

    @Override
    public int opcode() {
        return WebSocketOpcodes.PING;
    }

    @Override
    public PingWebSocketFrame replace(ByteBuf content) {
        return new PingWebSocketFrame(isFinalFragment(), rsv(), content);
    }
}
