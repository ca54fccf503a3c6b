package io.weir.handler.timeout;

import io.weir.channel.ChannelException;

/**
 * Raised when a read or write did not happen in time. The subclasses' shared instances carry no stack trace:
 * a slow peer can trigger them at will, and the stack would only show the timer.
 */
public class TimeoutException extends ChannelException {
    private static final long serialVersionUID = 1L;

    /** A timeout with {@code message}; {@code writableStackTrace} false for the shared, peer-triggered ones. */
    protected TimeoutException(String message, boolean writableStackTrace) {
        super(message, null, writableStackTrace);
    }
}
