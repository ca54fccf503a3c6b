package io.weir.channel.unix;

import java.net.ConnectException;

/**
 * A connection attempt failed ({@code connect} or the completion check of a non-blocking connect): refused
 * ({@code ECONNREFUSED}), timed out, host or network unreachable, or any other {@code errno}. It is a
 * {@link ConnectException}, so code written against the JDK's sockets recognizes it.
 */
public final class NativeConnectException extends ConnectException {
    private static final long serialVersionUID = 1L;

    private final int errno;

    /**
     * @param operation the failed call
     * @param errno the positive error number
     */
    public NativeConnectException(String operation, int errno) {
        super(Errors.message(operation, errno));
        this.errno = errno;
    }

    /** The positive error number the attempt failed with. */
    public int errno() {
        return errno;
    }
}
