package io.weir.handler.codec;

/**
 * A frame (or a line) is longer than the decoder's limit. The message says how long it was, or how much was discarded, and what the limit is.
 *
 * <p>Weir's frame decoders throw it without a stack trace ({@link #withoutStackTrace(String)}): a peer can
 * provoke it at will, so it must stay cheap.
 */
public class TooLongFrameException extends DecoderException {
    private static final long serialVersionUID = 1L;

    /** With neither message nor cause. */
    public TooLongFrameException() {
    }

    /** With a message. */
    public TooLongFrameException(String message) {
        super(message);
    }

    /** With a message and a cause. */
    public TooLongFrameException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Wrapping {@code cause}. */
    public TooLongFrameException(Throwable cause) {
        super(cause);
    }

    private TooLongFrameException(String message, boolean writableStackTrace) {
        super(message, null, false, writableStackTrace);
    }

    /** A new exception with {@code message} and no stack trace, for input a peer controls. */
    public static TooLongFrameException withoutStackTrace(String message) {
        return new TooLongFrameException(message, false);
    }
}
