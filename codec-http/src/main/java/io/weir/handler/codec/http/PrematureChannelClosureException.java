package io.weir.handler.codec.http;

import io.weir.handler.codec.CodecException;

/**
 * The connection closed while a message was incomplete (in its headers or its body), or while a client still
 * waited for responses. Carried by a failed {@link io.weir.handler.codec.DecoderResult} or passed to
 * {@code exceptionCaught} by {@link HttpClientCodec}.
 */
public final class PrematureChannelClosureException extends CodecException {
    private static final long serialVersionUID = 1L;

    /** With a message saying what was missing. */
    public PrematureChannelClosureException(String message) {
        super(message);
    }
}
