package io.weir.channel.kqueue;

import io.weir.channel.IoOps;
import io.weir.channel.IoRegistration;
import io.weir.channel.unix.FileDescriptor;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A handle's registration with a {@link KQueueIoHandler}: the read and write filters last
 * {@linkplain #submit submitted} for its descriptor. {@link #submit} is for the event loop; {@link #isValid()}
 * and {@link #cancel()} are safe on any thread.
 */
final class KQueueRegistration implements IoRegistration {
    private static final AtomicIntegerFieldUpdater<KQueueRegistration> CANCELLED =
            AtomicIntegerFieldUpdater.newUpdater(KQueueRegistration.class, "cancelled");

    final KQueueIoHandler handler;
    final KQueueIoHandle handle;
    final FileDescriptor fd;
    // Loop thread only: the filters the kqueue holds for fd.
    KQueueIoOps ops = KQueueIoOps.NONE;
    private volatile int cancelled;

    KQueueRegistration(KQueueIoHandler handler, KQueueIoHandle handle, FileDescriptor fd) {
        this.handler = handler;
        this.handle = handle;
        this.fd = fd;
    }

    /**
     * Keeps exactly the filters of {@code ops}: each new one is added ({@code EV_ADD | EV_CLEAR}) and each dropped
     * one deleted. A filter added while the descriptor is ready for it fires on the next wait.
     *
     * @return the previous {@link KQueueIoOps#value()}
     * @throws IllegalArgumentException if {@code ops} is not a {@link KQueueIoOps}
     * @throws IllegalStateException if the registration was cancelled or its descriptor closed
     * @throws java.io.UncheckedIOException if {@code kevent} refused a change otherwise
     */
    @Override
    public long submit(IoOps ops) {
        if (!(ops instanceof KQueueIoOps)) {
            throw new IllegalArgumentException("ops: " + (ops == null ? "null" : ops.getClass().getName())
                    + " (expected: " + KQueueIoOps.class.getName() + ')');
        }
        if (cancelled != 0) {
            throw new IllegalStateException("registration cancelled: " + this);
        }
        KQueueIoOps old = this.ops;
        if (old != ops) {
            handler.modify(this, old, (KQueueIoOps) ops);
        }
        return old.value();
    }

    @Override
    public boolean isValid() {
        return cancelled == 0 && fd.isOpen();
    }

    /**
     * {@inheritDoc} The filters are deleted at once on the loop, or through a task when called from another
     * thread; events already collected for the descriptor are not dispatched.
     */
    @Override
    public boolean cancel() {
        if (cancelled != 0 || !CANCELLED.compareAndSet(this, 0, 1)) {
            return false;
        }
        handler.registrationEnded();
        handler.deregister(this);
        return true;
    }

    boolean isCancelled() {
        return cancelled != 0;
    }

    /** The handle's {@link FileDescriptor}. */
    @SuppressWarnings("unchecked")
    @Override
    public <T> T attachment() {
        return (T) fd;
    }

    @Override
    public String toString() {
        return "KQueueRegistration(" + handle + ", " + KQueueIoOps.describe(ops.value())
                + (cancelled != 0 ? ", cancelled)" : ")");
    }
}
