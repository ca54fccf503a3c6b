package io.weir.channel.unix;

import java.io.IOException;

/**
 * A system call failed: carries the call's name and its {@code errno}. Subtypes mark the failures callers
 * treat differently ({@link ConnectionResetException}); a failed connection attempt is a
 * {@link NativeConnectException} instead, which is a {@link java.net.ConnectException}.
 *
 * <p>Some instances are shared and carry no stack trace (see {@link Errors}): never add suppressed exceptions
 * to one you did not create.
 */
public class NativeIoException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int errno;

    /**
     * @param operation the failed call, for the message ({@code "read"}, {@code "connect"})
     * @param errno the positive error number
     */
    public NativeIoException(String operation, int errno) {
        super(Errors.message(operation, errno));
        this.errno = errno;
    }

    /** A failure whose message shows the call's arguments, as {@code bind(127.0.0.1:8080) failed: ...}. */
    NativeIoException(String operation, String arguments, int errno) {
        super(Errors.message(operation, arguments, errno));
        this.errno = errno;
    }

    /** The positive error number the call failed with. */
    public int errno() {
        return errno;
    }
}
