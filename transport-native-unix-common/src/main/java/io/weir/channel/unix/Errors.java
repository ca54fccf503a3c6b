package io.weir.channel.unix;

import io.weir.channel.internal.BindFailure;
import java.net.SocketAddress;

/**
 * Turns the natives' return values into results and typed exceptions.
 *
 * <p><b>Convention.</b> A native returns a value {@code >= 0} on success and {@code -errno} on failure.
 * {@code EAGAIN}/{@code EWOULDBLOCK} ("try again when ready") is not an exception anywhere in this package:
 * the Java methods return a documented value instead (0 bytes, {@code false}, {@code null}). Everything else
 * becomes a {@link NativeIoException}; {@code ECONNRESET} and {@code EPIPE} a {@link ConnectionResetException};
 * failures of {@code connect} a {@link NativeConnectException}.
 *
 * <p><b>Preallocated exceptions.</b> A peer can make reads fail with {@code ECONNRESET} and writes with
 * {@code EPIPE}/{@code ECONNRESET} as often as it likes; those are shared instances without a stack trace.
 *
 * <p>The errno values are the platform's, read from the natives when this class initializes (after
 * {@link Unix#ensureAvailability()}). Thread-safe.
 */
public final class Errors {
    /** {@code EAGAIN}. */
    public static final int EAGAIN;
    /** {@code EWOULDBLOCK} (the same value as {@code EAGAIN} on Linux). */
    public static final int EWOULDBLOCK;
    /** {@code EINPROGRESS}: a non-blocking connect goes on in the background. */
    public static final int EINPROGRESS;
    /** {@code ECONNRESET}. */
    public static final int ECONNRESET;
    /** {@code EPIPE}. */
    public static final int EPIPE;
    /** {@code ECONNREFUSED}. */
    public static final int ECONNREFUSED;
    /** {@code ENOTCONN}. */
    public static final int ENOTCONN;
    /** {@code EALREADY}. */
    public static final int EALREADY;
    /** {@code EBADF}. */
    public static final int EBADF;
    /** {@code ETIMEDOUT}. */
    public static final int ETIMEDOUT;
    /** {@code EHOSTUNREACH}. */
    public static final int EHOSTUNREACH;
    /** {@code ENETUNREACH}. */
    public static final int ENETUNREACH;
    /** {@code EISCONN}. */
    public static final int EISCONN;
    /** {@code ENOENT}. */
    public static final int ENOENT;
    /** {@code EINVAL}. */
    public static final int EINVAL;
    /** {@code EINTR}: a call that is not retried (such as {@code epoll_wait}) was interrupted by a signal. */
    public static final int EINTR;

    private static final StackTraceElement[] NO_STACK_TRACE = new StackTraceElement[0];

    static {
        Unix.ensureAvailability();
        int[] values = new int[UnixNative.ERRNO_COUNT];
        UnixNative.errnoValues(values);
        EAGAIN = values[UnixNative.ERRNO_EAGAIN];
        EWOULDBLOCK = values[UnixNative.ERRNO_EWOULDBLOCK];
        EINPROGRESS = values[UnixNative.ERRNO_EINPROGRESS];
        ECONNRESET = values[UnixNative.ERRNO_ECONNRESET];
        EPIPE = values[UnixNative.ERRNO_EPIPE];
        ECONNREFUSED = values[UnixNative.ERRNO_ECONNREFUSED];
        ENOTCONN = values[UnixNative.ERRNO_ENOTCONN];
        EALREADY = values[UnixNative.ERRNO_EALREADY];
        EBADF = values[UnixNative.ERRNO_EBADF];
        ETIMEDOUT = values[UnixNative.ERRNO_ETIMEDOUT];
        EHOSTUNREACH = values[UnixNative.ERRNO_EHOSTUNREACH];
        ENETUNREACH = values[UnixNative.ERRNO_ENETUNREACH];
        EISCONN = values[UnixNative.ERRNO_EISCONN];
        ENOENT = values[UnixNative.ERRNO_ENOENT];
        EINVAL = values[UnixNative.ERRNO_EINVAL];
        EINTR = values[UnixNative.ERRNO_EINTR];
        if (EAGAIN == 0 || ECONNRESET == 0) {
            throw new IllegalStateException("the natives returned no errno values");
        }
    }

    // Shared, stackless: what a peer can trigger at will (see the class comment).
    private static final ConnectionResetException READ_CONNECTION_RESET = stackless(
            new ConnectionResetException("read", ECONNRESET));
    private static final ConnectionResetException WRITE_CONNECTION_RESET = stackless(
            new ConnectionResetException("write", ECONNRESET));
    private static final ConnectionResetException WRITE_BROKEN_PIPE = stackless(
            new ConnectionResetException("write", EPIPE));

    private Errors() {
    }

    private static <T extends Throwable> T stackless(T t) {
        t.setStackTrace(NO_STACK_TRACE);
        return t;
    }

    /** {@code "<operation>(..) failed: <strerror> (errno <n>)"}. */
    static String message(String operation, int errno) {
        return message(operation, "..", errno);
    }

    /** {@code "<operation>(<arguments>) failed: <strerror> (errno <n>)"}. */
    static String message(String operation, String arguments, int errno) {
        String description;
        try {
            description = UnixNative.strError(errno);
        } catch (UnsatisfiedLinkError e) {
            description = "unknown error";
        }
        return operation + '(' + arguments + ") failed: " + description + " (errno " + errno + ')';
    }

    /** Whether {@code result} (a native's return value) means "try again when ready". */
    public static boolean isAgain(long result) {
        return result == -EAGAIN || result == -EWOULDBLOCK;
    }

    /**
     * The exception for a failed call: a {@link ConnectionResetException} for {@code ECONNRESET}/{@code EPIPE},
     * a {@link NativeIoException} otherwise.
     *
     * @param operation the call's name, for the message
     * @param result the native's negative return value ({@code -errno})
     * @throws IllegalArgumentException if {@code result} is not negative
     */
    public static NativeIoException newIoException(String operation, long result) {
        int errno = errnoOf(result);
        if (errno == ECONNRESET || errno == EPIPE) {
            return new ConnectionResetException(operation, errno);
        }
        return new NativeIoException(operation, errno);
    }

    /**
     * The exception for a failed {@code bind(2)}: a {@link NativeIoException} whose message names the address, as
     * {@code bind(127.0.0.1:8080) failed: Address already in use (errno 98)}.
     *
     * @param local the address the bind asked for
     * @param result the native's negative return value ({@code -errno})
     * @throws IllegalArgumentException if {@code result} is not negative
     */
    static NativeIoException newBindException(SocketAddress local, long result) {
        return new NativeIoException("bind", BindFailure.describe(local), errnoOf(result));
    }

    /**
     * The exception for a failed connection attempt.
     *
     * @param result the native's negative return value ({@code -errno})
     * @throws IllegalArgumentException if {@code result} is not negative
     */
    public static NativeConnectException newConnectException(String operation, long result) {
        return new NativeConnectException(operation, errnoOf(result));
    }

    private static int errnoOf(long result) {
        if (result >= 0 || result < Integer.MIN_VALUE) {
            throw new IllegalArgumentException("result: " + result + " (expected: -errno)");
        }
        return (int) -result;
    }

    /**
     * The outcome of a read: bytes read ({@code > 0}), 0 if nothing is available now, -1 at end of stream.
     *
     * @throws NativeIoException for any other failure (a shared {@link ConnectionResetException} for
     *         {@code ECONNRESET})
     */
    static int readResult(String operation, int result) throws NativeIoException {
        if (result > 0) {
            return result;
        }
        if (result == 0) {
            return -1;
        }
        return (int) failedIo(operation, result, READ_CONNECTION_RESET, READ_CONNECTION_RESET);
    }

    /** {@link #readResult} for a {@code long} count. */
    static long readResult(String operation, long result) throws NativeIoException {
        if (result > 0) {
            return result;
        }
        if (result == 0) {
            return -1;
        }
        return failedIo(operation, result, READ_CONNECTION_RESET, READ_CONNECTION_RESET);
    }

    /**
     * The outcome of a write: bytes written, 0 if the socket buffer is full now.
     *
     * @throws NativeIoException for any other failure (shared {@link ConnectionResetException}s for
     *         {@code EPIPE} and {@code ECONNRESET})
     */
    static long writeResult(String operation, long result) throws NativeIoException {
        if (result >= 0) {
            return result;
        }
        return failedIo(operation, result, WRITE_CONNECTION_RESET, WRITE_BROKEN_PIPE);
    }

    private static long failedIo(String operation, long result, ConnectionResetException reset,
                                 ConnectionResetException brokenPipe) throws NativeIoException {
        if (isAgain(result)) {
            return 0;
        }
        if (result == -ECONNRESET) {
            throw reset;
        }
        if (result == -EPIPE) {
            throw brokenPipe;
        }
        throw newIoException(operation, result);
    }

    /**
     * Throws the exception of a failed call unless {@code result} is non-negative.
     *
     * @return {@code result}
     * @throws NativeIoException if {@code result} is negative
     */
    static int check(String operation, int result) throws NativeIoException {
        if (result < 0) {
            throw newIoException(operation, result);
        }
        return result;
    }
}
