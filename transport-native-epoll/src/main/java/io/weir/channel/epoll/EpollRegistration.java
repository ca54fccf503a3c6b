package io.weir.channel.epoll;

import io.weir.channel.IoOps;
import io.weir.channel.IoRegistration;
import io.weir.channel.unix.FileDescriptor;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A handle's registration with an {@link EpollIoHandler}: its descriptor in the epoll set with the events last
 * {@linkplain #submit submitted}. {@link #submit} is for the event loop; {@link #isValid()} and {@link #cancel()}
 * are safe on any thread.
 */
final class EpollRegistration implements IoRegistration {
    private static final AtomicIntegerFieldUpdater<EpollRegistration> CANCELLED =
            AtomicIntegerFieldUpdater.newUpdater(EpollRegistration.class, "cancelled");

    final EpollIoHandler handler;
    final EpollIoHandle handle;
    final FileDescriptor fd;
    // Loop thread only.
    EpollIoOps ops = EpollIoOps.NONE;
    private volatile int cancelled;

    EpollRegistration(EpollIoHandler handler, EpollIoHandle handle, FileDescriptor fd) {
        this.handler = handler;
        this.handle = handle;
        this.fd = fd;
    }

    /**
     * Replaces the watched events with {@code ops} ({@code epoll_ctl(EPOLL_CTL_MOD)}). If the descriptor is
     * ready for something in {@code ops}, the handle hears about it on the next wait, edge-triggered or not.
     *
     * @return the previous {@link EpollIoOps#value()}
     * @throws IllegalArgumentException if {@code ops} is not an {@link EpollIoOps}
     * @throws IllegalStateException if the registration was cancelled or its descriptor closed
     * @throws java.io.UncheckedIOException if {@code epoll_ctl} failed otherwise
     */
    @Override
    public long submit(IoOps ops) {
        if (!(ops instanceof EpollIoOps)) {
            throw new IllegalArgumentException("ops: " + (ops == null ? "null" : ops.getClass().getName())
                    + " (expected: " + EpollIoOps.class.getName() + ')');
        }
        if (cancelled != 0) {
            throw new IllegalStateException("registration cancelled: " + this);
        }
        EpollIoOps old = this.ops;
        if (old != ops) {
            handler.modify(this, (EpollIoOps) ops);
            this.ops = (EpollIoOps) ops;
        }
        return old.value();
    }

    @Override
    public boolean isValid() {
        return cancelled == 0 && fd.isOpen();
    }

    /**
     * {@inheritDoc} The descriptor leaves the epoll set at once on the loop, or through a task when called from
     * another thread; events already collected for it are not dispatched.
     */
    @Override
    public boolean cancel() {
        if (!markCancelled()) {
            return false;
        }
        handler.deregister(this);
        return true;
    }

    boolean isCancelled() {
        return cancelled != 0;
    }

    /** Flips to cancelled and uncounts the handle; {@code false} if it was cancelled already. */
    boolean markCancelled() {
        if (cancelled != 0 || !CANCELLED.compareAndSet(this, 0, 1)) {
            return false;
        }
        handler.registrationEnded();
        return true;
    }

    /** The handle's {@link FileDescriptor}. */
    @SuppressWarnings("unchecked")
    @Override
    public <T> T attachment() {
        return (T) fd;
    }

    @Override
    public String toString() {
        return "EpollRegistration(" + handle + ", " + EpollIoOps.describe(ops.value())
                + (cancelled != 0 ? ", cancelled)" : ")");
    }
}
