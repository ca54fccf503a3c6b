package io.weir.handler.codec;

/** An encoder failed. An exception thrown by {@code encode} is wrapped in one (an {@code EncoderException} itself is not wrapped again). */
public class EncoderException extends CodecException {
    private static final long serialVersionUID = 1L;

    /** With neither message nor cause. */
    public EncoderException() {
    }

    /** With a message. */
    public EncoderException(String message) {
        super(message);
    }

    /** With a message and a cause. */
    public EncoderException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Wrapping {@code cause}. */
    public EncoderException(Throwable cause) {
        super(cause);
    }

    /** With every option; see {@link CodecException#CodecException(String, Throwable, boolean, boolean)}. */
    protected EncoderException(String message, Throwable cause, boolean enableSuppression, boolean writableStackTrace) {
        super(message, cause, enableSuppression, writableStackTrace);
    }
}
