package io.weir.handler.codec.http;

import io.weir.handler.codec.TooLongFrameException;

/**
 * A message body is longer than the decoder's {@link HttpDecoderConfig#setMaxContentLength(long) content limit}. A server answers 413.
 *
 * <p>The message says how much was seen and what the limit is. Created without a stack trace: a peer can provoke
 * it at will.
 */
public final class TooLongHttpContentException extends TooLongFrameException {
    private static final long serialVersionUID = 1L;

    /** With a message saying what was seen and what the limit is. */
    public TooLongHttpContentException(String message) {
        super(message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        // Peer-triggered: a stack trace would only cost time.
        return this;
    }
}
