package io.weir.channel.kqueue;

import io.weir.channel.IoEvent;
import io.weir.channel.unix.internal.Readiness;

/**
 * One kevent a {@link KQueueIoHandler} reports to a {@link KQueueIoHandle}: which filter fired and whether it
 * carried {@code EV_EOF} or an error. kqueue reports the read and the write filter of a descriptor as two
 * separate events, so a handle may hear twice in one wait. Readiness is a hint: an operation may still find
 * nothing to do ({@code EAGAIN}), and end of stream is only certain when a read returns 0.
 *
 * <p>The event's {@code data} (bytes readable, backlog, room to write) is deliberately not exposed: libkqueue
 * cannot report a listening socket's backlog (it says 1) and derives the readable byte count from
 * {@code SIOCINQ}, so a handle that relied on it would behave differently on Linux than on a BSD kernel.
 *
 * <p><b>The error number travels with the event.</b> libkqueue reads a socket's pending error with
 * {@code getsockopt(SO_ERROR)} to report it, which clears it: a later {@code SO_ERROR} (a connect's completion
 * check) then finds 0. So {@link #errorNumber()} is the only reliable record of it on Linux, and handles must
 * prefer it; a BSD kernel reports the same number without clearing anything.
 *
 * <p>Immutable; one shared instance per combination without an error number, so dispatching readiness allocates
 * nothing (an event carrying an error is created for it: errors are rare and end a connection).
 */
public final class KQueueIoEvent implements IoEvent {
    private static final int WRITE_INDEX = 1;
    private static final int EOF_INDEX = 2;
    private static final int ERROR_INDEX = 4;
    private static final KQueueIoEvent[] CACHE = new KQueueIoEvent[8];

    static {
        for (int i = 0; i < CACHE.length; i++) {
            CACHE[i] = new KQueueIoEvent(i);
        }
    }

    private final int index;
    private final int errorNumber;
    /**
     * The event as unix-common's {@link Readiness} flags, for the channels: the write filter is write readiness
     * only; the read filter is read readiness, with {@code EV_EOF} the peer's FIN, and with an error an error.
     */
    final int readiness;

    private KQueueIoEvent(int index) {
        this(index, 0);
    }

    private KQueueIoEvent(int index, int errorNumber) {
        this.index = index;
        this.errorNumber = errorNumber;
        if ((index & WRITE_INDEX) != 0) {
            readiness = Readiness.WRITABLE;
        } else {
            readiness = Readiness.READABLE | ((index & EOF_INDEX) != 0 ? Readiness.PEER_FIN : 0)
                    | ((index & ERROR_INDEX) != 0 ? Readiness.ERROR : 0);
        }
    }

    /**
     * The event of a kevent of {@code filter} with {@code flags} and {@code fflags}. An error is {@code EV_ERROR},
     * or {@code EV_EOF} with an error number in {@code fflags} (how both BSD kernels and libkqueue report a
     * socket's pending error).
     */
    static KQueueIoEvent of(short filter, int flags, int fflags) {
        int index = filter == Native.EVFILT_WRITE ? WRITE_INDEX : 0;
        int errorNumber = 0;
        if ((flags & Native.EV_EOF) != 0) {
            index |= EOF_INDEX;
            errorNumber = fflags;
        }
        if ((flags & Native.EV_ERROR) != 0) {
            index |= ERROR_INDEX;
        }
        if (errorNumber > 0) {
            return new KQueueIoEvent(index | ERROR_INDEX, errorNumber);
        }
        return CACHE[index];
    }

    /** {@code EVFILT_READ} fired: data to read, a connection to accept, or end of stream. */
    public boolean isReadable() {
        return (index & WRITE_INDEX) == 0;
    }

    /** {@code EVFILT_WRITE} fired: room to write, or a connect that finished (successfully or not). */
    public boolean isWritable() {
        return (index & WRITE_INDEX) != 0;
    }

    /**
     * {@code EV_EOF}: for the read filter, the peer shut down its output (what it sent before is still
     * readable); for the write filter, the descriptor can no longer be written.
     */
    public boolean isEndOfFile() {
        return (index & EOF_INDEX) != 0;
    }

    /** An error is pending on the descriptor ({@code SO_ERROR} says which). */
    public boolean isError() {
        return (index & ERROR_INDEX) != 0;
    }

    /**
     * The error number the event carried ({@code ECONNREFUSED} for a refused connect, for example), or 0. Compare
     * with {@link io.weir.channel.unix.Errors}' constants; see the class comment for why a handle must use this
     * rather than asking the socket afterwards.
     */
    public int errorNumber() {
        return errorNumber;
    }

    @Override
    public String toString() {
        return "KQueueIoEvent(" + (isReadable() ? "READ" : "WRITE") + (isEndOfFile() ? "|EOF" : "")
                + (isError() ? "|ERROR" : "")
                + (errorNumber != 0 ? ", errno " + errorNumber : "") + ')';
    }
}
