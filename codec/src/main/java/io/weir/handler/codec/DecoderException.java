package io.weir.handler.codec;

/** A decoder failed */
public class DecoderException extends CodecException {
    private static final long serialVersionUID = 1L;

    /** With neither message nor cause. */
    public DecoderException() {
    }

    /** With a message. */
    public DecoderException(String message) {
        super(message);
    }

    /** With a message and a cause. */
    public DecoderException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Wrapping {@code cause}. */
    public DecoderException(Throwable cause) {
        super(cause);
    }

    /** With every option; see {@link CodecException#CodecException(String, Throwable, boolean, boolean)}. */
    protected DecoderException(String message, Throwable cause, boolean enableSuppression, boolean writableStackTrace) {
        super(message, cause, enableSuppression, writableStackTrace);
    }
}
