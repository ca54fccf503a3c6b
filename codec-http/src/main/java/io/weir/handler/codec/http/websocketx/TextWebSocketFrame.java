package io.weir.handler.codec.http.websocketx;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;

/**
 * The first (or only) frame of a text message (opcode 0x1); its payload is UTF-8 (validated by the decoder across
 * the whole message). Later fragments are {@link ContinuationWebSocketFrame}s.
 */
public final class TextWebSocketFrame extends WebSocketFrame {

    /** An empty, final TextWebSocketFrame. */
    public TextWebSocketFrame() {
        this(true, 0, Unpooled.EMPTY_BUFFER);
    }

    /** A final TextWebSocketFrame owning {@code payload}. */
    public TextWebSocketFrame(ByteBuf payload) {
        this(true, 0, payload);
    }

    /**
     * A TextWebSocketFrame owning {@code payload}.
     *
     * @throws IllegalArgumentException if {@code rsv} is outside 0..7
     */
    public TextWebSocketFrame(boolean finalFragment, int rsv, ByteBuf payload) {
        super(finalFragment, rsv, payload);
    }

    @Override
    public int opcode() {
        return WebSocketOpcodes.TEXT;
    }

    @Override
    public TextWebSocketFrame replace(ByteBuf content) {
        return new TextWebSocketFrame(isFinalFragment(), rsv(), content);
    }

    /** A final text frame holding {@code text} encoded as UTF-8 (in a new unpooled buffer). */
    public TextWebSocketFrame(String text) {
        this(true, 0, Unpooled.copiedBuffer(text, java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The payload decoded as UTF-8 (of this frame alone: a fragment may end inside a character). */
    public String text() {
        return content().toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}
