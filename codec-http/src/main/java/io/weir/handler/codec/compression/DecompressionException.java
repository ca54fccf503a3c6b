package io.weir.handler.codec.compression;

import io.weir.handler.codec.DecoderException;

/** A compressed HTTP body could not be decoded: corrupt, truncated, or followed by trailing data. */
public class DecompressionException extends DecoderException {
    private static final long serialVersionUID = 1L;

    /** An exception with {@code message}. */
    public DecompressionException(String message) {
        super(message);
    }

    /** An exception with {@code message} and {@code cause}. */
    public DecompressionException(String message, Throwable cause) {
        super(message, cause);
    }
}
