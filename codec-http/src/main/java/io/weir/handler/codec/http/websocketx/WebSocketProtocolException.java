package io.weir.handler.codec.http.websocketx;

import io.weir.handler.codec.CorruptedFrameException;

/**
 * The peer broke RFC 6455 (or an extension's rules), or exceeded a limit: the connection is failed (§7.1.7) with
 * the close status {@link #closeStatus()} (1002 protocol error, 1007 invalid UTF-8, 1009 too big). By the time a
 * handler sees this in {@code exceptionCaught}, the decoder has already sent that close frame and is closing the
 * connection. Created without a stack trace: a peer can cause it at will.
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

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
