package io.weir.channel.uring;

import io.weir.channel.IoHandle;

/**
 * Something an {@link IoUringIoHandler} submits operations for: a channel, a pipe, a test's eventfd. Every
 * completion of its operations arrives as an {@link IoUringIoEvent} through {@link #handle}, including those of
 * operations cancelled because the registration was cancelled or the loop shut down ({@code res} then is usually
 * {@code -ECANCELED}).
 *
 * <p><b>Memory lent to the kernel.</b> A buffer an operation points to may be freed when that operation's last
 * completion arrived, or at the latest in {@link #unregistered()}: the handler calls it once after the
 * registration was cancelled and every operation of it has completed, so no completion can touch the memory
 * afterwards. {@link #close()} (called when the loop shuts down, after {@link #unregistered()}) closes the
 * resource; if the handler could not drain the ring in time it skips {@link #unregistered()} and the handle must
 * not free lent memory in {@link #close()}.
 *
 * <p><b>Descriptors.</b> An SQE names a descriptor by number, which the kernel resolves when the handler submits
 * the SQE, at the end of the loop turn at the latest. A descriptor must therefore stay open until the operations
 * naming it were submitted; closing it in {@link #unregistered()} or {@link #close()} is always safe (the io_uring
 * channels close theirs earlier, after making the handler submit what is queued).
 *
 * <p>Every method is called on the event loop.
 */
public interface IoUringIoHandle extends IoHandle {

    /**
     * The registration is cancelled and none of its operations is in flight any more: memory lent to the kernel
     * may be freed now. Called once, on the event loop.
     */
    void unregistered();
}
