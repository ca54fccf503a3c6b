package io.weir.handler.codec.http;

import io.weir.handler.codec.DecoderException;

/**
 * A response arrived on a client connection with no request waiting for one: the server is confused or hostile,
 * and nothing after it can be paired reliably. {@link HttpClientCodec} attaches it to the response as a failed
 * {@link io.weir.handler.codec.DecoderResult} and stops decoding.
 */
public final class UnexpectedHttpResponseException extends DecoderException {
    private static final long serialVersionUID = 1L;

    /** With a message saying what arrived. */
    public UnexpectedHttpResponseException(String message) {
        super(message, null, false, false);
    }
}
