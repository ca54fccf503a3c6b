package io.weir.handler.codec.http;

import io.weir.handler.codec.TooLongFrameException;

/**
 * The header fields (or the trailer fields) of a message are larger in total than the decoder's limit, or more numerous. A server answers 431.
 *
 * <p>The message says how much was seen and what the limit is. Created without a stack trace: a peer can provoke
 * it at will.
 */
public final class TooLongHttpHeaderException extends TooLongFrameException {
    private static final long serialVersionUID = 1L;

    /** With a message saying what was seen and what the limit is. */
    public TooLongHttpHeaderException(String message) {
        super(message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        // Peer-triggered: a stack trace would only cost time.
        return this;
    }
}
