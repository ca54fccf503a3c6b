package io.weir.handler.codec;

/**
 * The root of the exceptions codecs throw. Unchecked: a handler that throws one from an inbound method has it
 * delivered to {@code exceptionCaught}; from an outbound method, it fails that operation's promise.
 */
public class CodecException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** With neither message nor cause. */
    public CodecException() {
    }

    /** With a message. */
    public CodecException(String message) {
        super(message);
    }

    /** With a message and a cause. */
    public CodecException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Wrapping {@code cause}, whose {@code toString()} becomes the message. */
    public CodecException(Throwable cause) {
        super(cause);
    }

    /**
     * With every option. Decoders facing hostile input pass {@code writableStackTrace == false}: a peer can make
     * them throw at will, and filling in a stack trace would be the most expensive part of the reaction.
     */
    protected CodecException(String message, Throwable cause, boolean enableSuppression,
                             boolean writableStackTrace) {
        super(message, cause, enableSuppression, writableStackTrace);
    }
}
