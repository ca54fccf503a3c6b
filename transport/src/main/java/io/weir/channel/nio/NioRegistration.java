package io.weir.channel.nio;

import io.weir.channel.IoOps;
import io.weir.channel.IoRegistration;
import java.nio.channels.SelectionKey;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A handle's registration with a {@link NioIoHandler}: a {@link SelectionKey} whose attachment is this
 * object. The key changes when the handler rebuilds its selector, so {@link #attachment()} should not be
 * cached. {@link #submit} is for the event loop; {@link #isValid()} and {@link #cancel()} are safe anywhere.
 */
final class NioRegistration implements IoRegistration {
    private static final AtomicIntegerFieldUpdater<NioRegistration> CANCELLED =
            AtomicIntegerFieldUpdater.newUpdater(NioRegistration.class, "cancelled");

    final NioIoHandler handler;
    final NioIoHandle handle;
    // Replaced, on the loop, when the selector is rebuilt; read by isValid() from any thread.
    volatile SelectionKey key;
    private volatile int cancelled;

    NioRegistration(NioIoHandler handler, NioIoHandle handle) {
        this.handler = handler;
        this.handle = handle;
    }

    /**
     * Sets the key's interest ops to {@code ops}.
     *
     * @return the previous interest ops ({@link SelectionKey} bits)
     * @throws IllegalArgumentException if {@code ops} is not a {@link NioIoOps}, or names an operation the
     *         channel does not support (e.g. {@code ACCEPT} on a socket)
     * @throws IllegalStateException if the registration was cancelled; a
     *         {@link java.nio.channels.CancelledKeyException} (a subtype) if the channel was closed
     */
    @Override
    public long submit(IoOps ops) {
        if (!(ops instanceof NioIoOps)) {
            throw new IllegalArgumentException("ops: " + (ops == null ? "null" : ops.getClass().getName())
                    + " (expected: " + NioIoOps.class.getName() + ')');
        }
        if (cancelled != 0) {
            throw new IllegalStateException("registration cancelled: " + this);
        }
        SelectionKey k = key;
        int old = k.interestOps();
        int value = ((NioIoOps) ops).value();
        if (old != value) {
            k.interestOps(value);
        }
        return old;
    }

    @Override
    public boolean isValid() {
        return cancelled == 0 && key.isValid();
    }

    /** {@inheritDoc} Cancels the selection key; the channel is deregistered at the selector's next select. */
    @Override
    public boolean cancel() {
        if (!markCancelled()) {
            return false;
        }
        key.cancel();
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

    /** The current {@link SelectionKey}. */
    @SuppressWarnings("unchecked")
    @Override
    public <T> T attachment() {
        return (T) key;
    }

    @Override
    public String toString() {
        return "NioRegistration(" + handle + (cancelled != 0 ? ", cancelled)" : ")");
    }
}
