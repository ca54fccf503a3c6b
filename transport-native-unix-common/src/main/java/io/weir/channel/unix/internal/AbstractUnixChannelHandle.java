package io.weir.channel.unix.internal;

import io.weir.channel.IoHandle;
import io.weir.channel.unix.FileDescriptor;

/**
 * The shared half of a native channel's {@link IoHandle}: the descriptor, closing when the I/O handler goes away,
 * and a description. A transport's subclass implements its own handle interface and decodes its events into
 * {@link Readiness} flags in {@link IoHandle#handle}. Not for applications.
 */
public abstract class AbstractUnixChannelHandle implements IoHandle {
    /** The channel this handle speaks for. */
    protected final Readiness readiness;

    /** The handle of the channel {@code readiness} belongs to. */
    protected AbstractUnixChannelHandle(Readiness readiness) {
        this.readiness = readiness;
    }

    /** The channel's socket, the same for the life of the handle. */
    public final FileDescriptor fd() {
        return readiness.fd();
    }

    /** The I/O handler is going away: the channel closes as a user would close it. */
    @Override
    public final void close() {
        readiness.handlerClosing();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + '(' + readiness + ')';
    }
}
