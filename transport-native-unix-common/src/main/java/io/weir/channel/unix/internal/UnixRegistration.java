package io.weir.channel.unix.internal;

import io.weir.channel.IoHandle;
import io.weir.channel.IoOps;
import io.weir.channel.IoRegistration;
import io.weir.channel.unix.FileDescriptor;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A handle's registration with a {@link UnixIoHandler}: its descriptor with the interest last
 * {@linkplain #submit submitted}. {@link #submit} is for the event loop; {@link #isValid()} and {@link #cancel()}
 * are safe on any thread. Not for applications.
 */
public final class UnixRegistration implements IoRegistration {
    private static final AtomicIntegerFieldUpdater<UnixRegistration> CANCELLED =
            AtomicIntegerFieldUpdater.newUpdater(UnixRegistration.class, "cancelled");

    private final UnixIoHandler<?> handler;
    private final IoHandle handle;
    private final FileDescriptor fd;
    // Loop thread only: what the kernel holds for fd.
    private IoOps ops;
    private volatile int cancelled;

    UnixRegistration(UnixIoHandler<?> handler, IoHandle handle, FileDescriptor fd, IoOps ops) {
        this.handler = handler;
        this.handle = handle;
        this.fd = fd;
        this.ops = ops;
    }

    /** The registered handle. */
    public IoHandle handle() {
        return handle;
    }

    /** The handle's descriptor, the same for the life of the registration. */
    public FileDescriptor fd() {
        return fd;
    }

    /** What the kernel holds for the descriptor now. Loop thread only. */
    public IoOps ops() {
        return ops;
    }

    /** Records what the kernel holds for the descriptor now, for a handler that applies a change in steps. */
    public void ops(IoOps ops) {
        this.ops = ops;
    }

    /**
     * Replaces the watched interest with {@code ops}, which must be the handler's kind of {@link IoOps}. If the
     * descriptor is ready for something in {@code ops}, the handle hears about it on the next wait.
     *
     * @return the previous interest's bits
     * @throws IllegalArgumentException if {@code ops} is not of the handler's kind
     * @throws IllegalStateException if the registration was cancelled or its descriptor closed
     * @throws java.io.UncheckedIOException if the kernel refused the change otherwise
     */
    @Override
    public long submit(IoOps ops) {
        return handler.submit(this, ops);
    }

    @Override
    public boolean isValid() {
        return cancelled == 0 && fd.isOpen();
    }

    /**
     * {@inheritDoc} The descriptor leaves the readiness set at once on the loop, or through a task when called from
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

    /** Whether the registration was cancelled. Any thread. */
    public boolean isCancelled() {
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
        return "UnixRegistration(" + handle + ", " + ops + (cancelled != 0 ? ", cancelled)" : ")");
    }
}
