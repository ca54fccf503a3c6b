package io.weir.channel.unix;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * An open file descriptor owned by this object: it is closed exactly once, by {@link #close()}, whichever
 * thread calls it and however often. Reads and writes go to and from native memory addresses; what an address
 * points to must stay allocated for the call (a direct buffer's memory, an {@link IovArray}).
 *
 * <p><b>Threads.</b> The open/shut-down state is atomic and every method may be called from any thread, but
 * I/O concurrent with {@link #close()} is the caller's problem: an operation that passed its open check may run
 * after the number was closed (and possibly reused by another open). Transports do I/O and close on one event
 * loop, which rules that out.
 *
 * <p><b>Results.</b> No method throws for {@code EAGAIN}: reads return 0, writes return 0 bytes. Failures are
 * {@link NativeIoException}s (see {@link Errors}).
 */
public class FileDescriptor implements Closeable {
    private static final AtomicIntegerFieldUpdater<FileDescriptor> STATE =
            AtomicIntegerFieldUpdater.newUpdater(FileDescriptor.class, "state");
    private static final int STATE_CLOSED = 1;
    private static final int STATE_INPUT_SHUTDOWN = 1 << 1;
    private static final int STATE_OUTPUT_SHUTDOWN = 1 << 2;

    /** The number; never changes, also after {@link #close()}. */
    protected final int fd;
    private volatile int state;

    /**
     * Takes ownership of {@code fd}: {@link #close()} will close it.
     *
     * @throws IllegalArgumentException if {@code fd} is negative
     * @throws UnsatisfiedLinkError if no native transport has registered this package's natives
     */
    public FileDescriptor(int fd) {
        if (fd < 0) {
            throw new IllegalArgumentException("fd: " + fd + " (expected: >= 0)");
        }
        Unix.ensureAvailability();
        this.fd = fd;
    }

    /** The descriptor's number (still the old number after {@link #close()}). */
    public final int intValue() {
        return fd;
    }

    /** Whether {@link #close()} has not been called yet. */
    public final boolean isOpen() {
        return (state & STATE_CLOSED) == 0;
    }

    /**
     * Closes the descriptor, the first time only; later calls return at once.
     *
     * @throws NativeIoException if the first close failed (the number is released all the same)
     */
    @Override
    public void close() throws IOException {
        for (;;) {
            int s = state;
            if ((s & STATE_CLOSED) != 0) {
                return;
            }
            if (STATE.compareAndSet(this, s, s | STATE_CLOSED)) {
                break;
            }
        }
        Errors.check("close", UnixNative.close(fd));
    }

    final boolean isInputShutdown0() {
        return (state & STATE_INPUT_SHUTDOWN) != 0;
    }

    final boolean isOutputShutdown0() {
        return (state & STATE_OUTPUT_SHUTDOWN) != 0;
    }

    /** Records a shutdown; {@code false} if the descriptor is closed. */
    final boolean markShutdown(boolean input, boolean output) {
        int bits = (input ? STATE_INPUT_SHUTDOWN : 0) | (output ? STATE_OUTPUT_SHUTDOWN : 0);
        for (;;) {
            int s = state;
            if ((s & STATE_CLOSED) != 0) {
                return false;
            }
            if ((s & bits) == bits || STATE.compareAndSet(this, s, s | bits)) {
                return true;
            }
        }
    }

    final void ensureOpen() throws ClosedChannelException {
        if ((state & STATE_CLOSED) != 0) {
            throw new ClosedChannelException();
        }
    }

    static void checkRange(int pos, int limit) {
        if (pos < 0 || pos > limit) {
            throw new IndexOutOfBoundsException("pos: " + pos + ", limit: " + limit + " (expected: 0 <= pos <= limit)");
        }
    }

    /**
     * Reads into {@code [address + pos, address + limit)}.
     *
     * @return bytes read; 0 if nothing is available now ({@code EAGAIN}); -1 at end of stream
     * @throws ClosedChannelException if this descriptor is closed
     * @throws ConnectionResetException (shared, stackless) if the peer reset the connection
     * @throws NativeIoException for other failures
     */
    public final int read(long address, int pos, int limit) throws IOException {
        checkRange(pos, limit);
        ensureOpen();
        if (pos == limit) {
            // read(2) of 0 bytes returns 0, which would look like end of stream.
            return 0;
        }
        return Errors.readResult("read", UnixNative.read(fd, address, pos, limit));
    }

    /**
     * Writes {@code [address + pos, address + limit)}.
     *
     * @return bytes written; 0 if nothing can be written now ({@code EAGAIN})
     * @throws ClosedChannelException if this descriptor is closed
     * @throws ConnectionResetException (shared, stackless) for {@code EPIPE} or {@code ECONNRESET}
     * @throws NativeIoException for other failures
     */
    public final int write(long address, int pos, int limit) throws IOException {
        checkRange(pos, limit);
        ensureOpen();
        return (int) Errors.writeResult("write", UnixNative.write(fd, address, pos, limit));
    }

    /**
     * Gathering write of {@code count} entries of {@code iov} from entry {@code offset}.
     *
     * @return bytes written; 0 if nothing can be written now
     * @throws IndexOutOfBoundsException if the entries are not all in {@code iov}
     * @throws ClosedChannelException if this descriptor is closed
     * @throws ConnectionResetException (shared, stackless) for {@code EPIPE} or {@code ECONNRESET}
     * @throws NativeIoException for other failures
     */
    public final long writev(IovArray iov, int offset, int count) throws IOException {
        long address = iov.memoryAddress(offset, count);
        ensureOpen();
        return Errors.writeResult("writev", UnixNative.writev(fd, address, count));
    }

    /** {@link #writev(IovArray, int, int)} of every entry of {@code iov}. */
    public final long writev(IovArray iov) throws IOException {
        return writev(iov, 0, iov.count());
    }

    /**
     * Scattering read into {@code count} entries of {@code iov} from entry {@code offset}.
     *
     * @return bytes read; 0 if nothing is available now; -1 at end of stream
     * @throws ClosedChannelException if this descriptor is closed
     * @throws ConnectionResetException (shared, stackless) if the peer reset the connection
     * @throws NativeIoException for other failures
     */
    public final long readv(IovArray iov, int offset, int count) throws IOException {
        long address = iov.memoryAddress(offset, count);
        ensureOpen();
        if (count == 0 || iov.size() == 0) {
            // readv(2) into nothing returns 0, which would look like end of stream.
            return 0;
        }
        return Errors.readResult("readv", UnixNative.readv(fd, address, count));
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(fd=" + fd + (isOpen() ? ")" : ", closed)");
    }
}
