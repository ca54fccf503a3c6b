package io.weir.handler.codec.http.websocketx;

import io.weir.handler.codec.CorruptedFrameException;
import java.nio.charset.StandardCharsets;

/**
 * The peer broke RFC 6455 (or an extension's rules), or exceeded a limit: the connection is failed (§7.1.7) with
 * the close status {@link #closeStatus()} (1002 protocol error, 1007 invalid UTF-8, 1009 too big) and this
 * exception's message as the close reason. By the time a handler sees this in {@code exceptionCaught}, the decoder
 * has already sent that close frame and is closing the connection. Created without a stack trace: a peer can cause
 * it at will.
 */
public class WebSocketProtocolException extends CorruptedFrameException {
    private static final long serialVersionUID = 1L;
    private final int closeStatus;

    /** A violation answered with {@code closeStatus}, described by {@code message} (sent as the close reason). */
    public WebSocketProtocolException(int closeStatus, String message) {
        super(message);
        this.closeStatus = closeStatus;
    }

    /** The close status the connection is failed with. */
    public int closeStatus() {
        return closeStatus;
    }

    /**
     * The reason the close frame carries: this exception's message, cut at a character boundary to the
     * {@value CloseWebSocketFrame#MAX_REASON_BYTES} bytes of UTF-8 a close frame has room for (RFC 6455 §5.5).
     */
    String closeReason() {
        String message = getMessage();
        if (message == null) {
            return "";
        }
        byte[] utf8 = message.getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= CloseWebSocketFrame.MAX_REASON_BYTES) {
            return message;
        }
        int end = CloseWebSocketFrame.MAX_REASON_BYTES;
        while ((utf8[end] & 0xC0) == 0x80) {
            // utf8[end] continues a character that starts before the cut: drop that whole character.
            end--;
        }
        return new String(utf8, 0, end, StandardCharsets.UTF_8);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
