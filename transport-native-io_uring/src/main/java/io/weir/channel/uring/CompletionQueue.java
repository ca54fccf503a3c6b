package io.weir.channel.uring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The completion half of a ring: the mmapped CQ ring the kernel posts CQEs to, seen through a direct
 * {@link ByteBuffer}. Event loop only.
 *
 * <p><b>Ordering.</b> The kernel owns the tail, this side the head. The tail is read with acquire semantics, so
 * the CQEs before it are complete when read with plain loads; each CQE is read whole before the head moves past it
 * with a release store, so the kernel never overwrites an entry still being read.
 *
 * <pre>
 * struct io_uring_cqe (16 bytes)
 *  0                8        12       16
 *  +----------------+--------+--------+
 *  | user_data      |  res   | flags  |
 *  +----------------+--------+--------+
 * </pre>
 */
final class CompletionQueue {
    /** What {@link #process} hands each CQE to. */
    interface Completions {
        /**
         * One CQE, already consumed from the ring.
         *
         * @param userData the SQE's {@code user_data}
         * @param res the result: {@code >= 0} success, {@code -errno} failure
         * @param flags {@code IORING_CQE_F_*}
         */
        void complete(long userData, int res, int flags);
    }

    static final int CQE_BYTES = 16;
    private static final int CQE_USER_DATA = 0;
    private static final int CQE_RES = 8;
    private static final int CQE_FLAGS = 12;

    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final ByteBuffer ring;
    private final int headOffset;
    private final int tailOffset;
    private final int overflowOffset;
    private final int cqes;
    private final int mask;
    private final int entries;
    // Loop thread only: the next entry to read; the kernel's copy is updated with a release store.
    private int head;

    CompletionQueue(ByteBuffer ring, long[] info) {
        this.ring = ring.order(ByteOrder.nativeOrder());
        this.headOffset = (int) info[Native.RING_CQ_HEAD];
        this.tailOffset = (int) info[Native.RING_CQ_TAIL];
        this.overflowOffset = (int) info[Native.RING_CQ_OVERFLOW];
        this.cqes = (int) info[Native.RING_CQ_CQES];
        this.mask = this.ring.getInt((int) info[Native.RING_CQ_MASK]);
        this.entries = (int) info[Native.RING_CQ_ENTRIES];
        this.head = (int) INT.getAcquire(this.ring, headOffset);
    }

    /** Slots in the ring. */
    int entries() {
        return entries;
    }

    /** Whether the kernel has posted CQEs not yet processed. */
    boolean hasCompletions() {
        return (int) INT.getAcquire(ring, tailOffset) != head;
    }

    /** CQEs the kernel could not post because the ring was full (IORING_FEAT_NODROP keeps them for later). */
    int overflow() {
        return (int) INT.getAcquire(ring, overflowOffset);
    }

    /**
     * Hands every CQE posted so far to {@code completions}, oldest first; CQEs posted meanwhile wait for the next
     * call.
     *
     * @return how many were processed
     */
    int process(Completions completions) {
        int tail = (int) INT.getAcquire(ring, tailOffset);
        int count = tail - head;
        ByteBuffer r = ring;
        for (int i = 0; i < count; i++) {
            int base = cqes + (head & mask) * CQE_BYTES;
            long userData = r.getLong(base + CQE_USER_DATA);
            int res = r.getInt(base + CQE_RES);
            int flags = r.getInt(base + CQE_FLAGS);
            head++;
            // Released before the callback runs: it may enter the kernel, which then sees the slot free.
            INT.setRelease(r, headOffset, head);
            completions.complete(userData, res, flags);
        }
        return count;
    }
}
