package io.weir.channel.uring;

import io.weir.channel.IoOps;
import io.weir.channel.IoRegistration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The link between an {@link IoUringIoHandle} and its {@link IoUringIoHandler}, and the ledger of the handle's
 * operations in flight: an operation counts from {@link #submit} until its last CQE (one without
 * {@link IoUringIoEvent#CQE_F_MORE}). {@link #submit} and the ledger are event-loop only; {@link #isValid()} and
 * {@link #cancel()} may be called from any thread.
 */
final class IoUringIoRegistration implements IoRegistration {
    private static final AtomicIntegerFieldUpdater<IoUringIoRegistration> CANCELLED =
            AtomicIntegerFieldUpdater.newUpdater(IoUringIoRegistration.class, "cancelled");
    private static final int INITIAL_INFLIGHT_CAPACITY = 4;

    private final IoUringIoHandler handler;
    private final IoUringIoHandle handle;
    private final int id;
    private volatile int cancelled;
    // Loop thread only: the ids of operations in flight (an id twice if submitted twice), unordered.
    private long[] inflight = new long[INITIAL_INFLIGHT_CAPACITY];
    private int inflightCount;
    // Loop thread only: whether the operations in flight were asked to cancel, and whether the handle heard
    // unregistered() and the id went back to the handler.
    private boolean cancelSubmitted;
    private boolean finished;

    IoUringIoRegistration(IoUringIoHandler handler, IoUringIoHandle handle, int id) {
        this.handler = handler;
        this.handle = handle;
        this.id = id;
    }

    IoUringIoHandle handle() {
        return handle;
    }

    int id() {
        return id;
    }

    /**
     * Queues the operation {@code ops} (an {@link IoUringIoOps}); the handler submits it with its next
     * {@code io_uring_enter}, at the latest at the end of this loop turn.
     *
     * @return the operation's id ({@code user_data}), for {@link IoUringIoOps#newAsyncCancel}
     * @throws IllegalArgumentException if {@code ops} is not an {@link IoUringIoOps}, or asks for
     *         {@code IOSQE_CQE_SKIP_SUCCESS} (its completion would never be seen, so the registration could never
     *         tell when the kernel is done with the handle's memory)
     * @throws IllegalStateException if the registration is cancelled or this is not the event loop
     */
    @Override
    public long submit(IoOps ops) {
        if (!(ops instanceof IoUringIoOps)) {
            throw new IllegalArgumentException("ops: " + (ops == null ? "null" : ops.getClass().getName())
                    + " (expected: " + IoUringIoOps.class.getName() + ')');
        }
        return handler.submit(this, (IoUringIoOps) ops);
    }

    @Override
    public boolean isValid() {
        return cancelled == 0;
    }

    /**
     * Cancels the registration and, on the event loop, every operation of it still in flight
     * ({@code IORING_OP_ASYNC_CANCEL}); their completions still reach the handle, and then
     * {@link IoUringIoHandle#unregistered()}. Any thread.
     */
    @Override
    public boolean cancel() {
        if (!CANCELLED.compareAndSet(this, 0, 1)) {
            return false;
        }
        handler.cancelled(this);
        return true;
    }

    /** The handler. */
    @SuppressWarnings("unchecked")
    @Override
    public <T> T attachment() {
        return (T) handler;
    }

    // ---------------------------------------------------------------- the ledger (loop thread only)

    void added(long operationId) {
        if (inflightCount == inflight.length) {
            inflight = Arrays.copyOf(inflight, inflightCount << 1);
        }
        inflight[inflightCount++] = operationId;
    }

    /** Forgets one in-flight entry of {@code operationId}; {@code false} if there was none. */
    boolean completed(long operationId) {
        long[] ids = inflight;
        for (int i = 0; i < inflightCount; i++) {
            if (ids[i] == operationId) {
                ids[i] = ids[--inflightCount];
                return true;
            }
        }
        return false;
    }

    int inflightCount() {
        return inflightCount;
    }

    long inflight(int index) {
        return inflight[index];
    }

    /** Marks the in-flight operations as asked to cancel; {@code false} if they were already. */
    boolean markCancelSubmitted() {
        if (cancelSubmitted) {
            return false;
        }
        cancelSubmitted = true;
        return true;
    }

    boolean isFinished() {
        return finished;
    }

    void finish() {
        finished = true;
    }

    @Override
    public String toString() {
        return "IoUringIoRegistration(id=" + id + ", " + handle + (isValid() ? "" : ", cancelled") + ')';
    }
}
