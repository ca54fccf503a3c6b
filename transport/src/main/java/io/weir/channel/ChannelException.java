package io.weir.channel;

/** An I/O operation on a channel failed for a reason that is not a plain {@link java.io.IOException}. */
public class ChannelException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message. */
    public ChannelException(String message) {
        super(message);
    }

    /** An exception with a message and a cause. */
    public ChannelException(String message, Throwable cause) {
        super(message, cause);
    }

    /** An exception wrapping {@code cause}. */
    public ChannelException(Throwable cause) {
        super(cause);
    }

    /** For exceptions raised at will by peers: no stack trace when {@code writableStackTrace} is false. */
    protected ChannelException(String message, Throwable cause, boolean writableStackTrace) {
        super(message, cause, false, writableStackTrace);
    }
}
