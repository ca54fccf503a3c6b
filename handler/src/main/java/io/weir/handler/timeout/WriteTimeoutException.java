package io.weir.handler.timeout;

/** Fired by {@link WriteTimeoutHandler} when a write was not completed within the timeout. */
public final class WriteTimeoutException extends TimeoutException {
    private static final long serialVersionUID = 1L;

    /** The shared instance, without stack trace. */
    public static final WriteTimeoutException INSTANCE = new WriteTimeoutException();

    private WriteTimeoutException() {
        super("a write did not complete within the write timeout", false);
    }
}
