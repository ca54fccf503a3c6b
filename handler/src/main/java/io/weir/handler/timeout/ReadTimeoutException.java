package io.weir.handler.timeout;

/** Fired by {@link ReadTimeoutHandler} when nothing was read within the timeout. */
public final class ReadTimeoutException extends TimeoutException {
    private static final long serialVersionUID = 1L;

    /** The shared instance, without stack trace. */
    public static final ReadTimeoutException INSTANCE = new ReadTimeoutException();

    private ReadTimeoutException() {
        super("nothing was read within the read timeout", false);
    }
}
