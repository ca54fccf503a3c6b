package io.weir.channel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The bytes an event loop's socket channels read from their peers and handed to the kernel, for
 * {@link SingleThreadIoEventLoop#bytesRead()} and {@link SingleThreadIoEventLoop#bytesWritten()}. Written by the
 * loop thread only (a plain add, published with opaque stores so that another thread never reads a torn value);
 * read by anyone, best effort. Counting per loop, not per connection, keeps the cost of byte metrics to two adds
 * on the I/O path, whether anyone reads them or not.
 */
final class IoByteCounters {
    private static final VarHandle READ;
    private static final VarHandle WRITTEN;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            READ = lookup.findVarHandle(IoByteCounters.class, "read", long.class);
            WRITTEN = lookup.findVarHandle(IoByteCounters.class, "written", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through READ
    private long read;
    @SuppressWarnings("unused") // through WRITTEN
    private long written;

    /** Loop thread only. */
    void addRead(long bytes) {
        READ.setOpaque(this, (long) READ.getOpaque(this) + bytes);
    }

    /** Loop thread only. */
    void addWritten(long bytes) {
        WRITTEN.setOpaque(this, (long) WRITTEN.getOpaque(this) + bytes);
    }

    long read() {
        return (long) READ.getOpaque(this);
    }

    long written() {
        return (long) WRITTEN.getOpaque(this);
    }
}
