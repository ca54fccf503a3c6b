package io.weir.handler.codec.http;

import io.weir.handler.codec.TooLongFrameException;

/**
 * An initial line (request line or status line) is longer than the decoder's limit. A server answers 414 for a request line.
 *
 * <p>The message says how much was seen and what the limit is. Created without a stack trace: a peer can provoke
 * it at will.
 */
public final class TooLongHttpLineException extends TooLongFrameException {
    private static final long serialVersionUID = 1L;

    /** With a message saying what was seen and what the limit is. */
    public TooLongHttpLineException(String message) {
        super(message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        // Peer-triggered: a stack trace would only cost time.
        return this;
    }
}
