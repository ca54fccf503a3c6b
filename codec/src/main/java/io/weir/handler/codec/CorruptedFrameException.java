package io.weir.handler.codec;

/**
 * A frame cannot be decoded because its framing is invalid: a negative length field, a length shorter than the header it belongs to.
 *
 * <p>Weir's frame decoders throw it without a stack trace ({@link #withoutStackTrace(String)}): a peer can
 * provoke it at will, so it must stay cheap.
 */
public class CorruptedFrameException extends DecoderException {
    private static final long serialVersionUID = 1L;

    /** With neither message nor cause. */
    public CorruptedFrameException() {
    }

    /** With a message. */
    public CorruptedFrameException(String message) {
        super(message);
    }

    /** With a message and a cause. */
    public CorruptedFrameException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Wrapping {@code cause}. */
    public CorruptedFrameException(Throwable cause) {
        super(cause);
    }

    private CorruptedFrameException(String message, boolean writableStackTrace) {
        super(message, null, false, writableStackTrace);
    }

    /** A new exception with {@code message} and no stack trace, for input a peer controls. */
    public static CorruptedFrameException withoutStackTrace(String message) {
        return new CorruptedFrameException(message, false);
    }
}
