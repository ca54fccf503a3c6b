package io.weir.util.platform;

import java.util.Queue;
import org.jctools.queues.MpscChunkedArrayQueue;
import org.jctools.queues.MpscUnboundedArrayQueue;
import org.jctools.queues.atomic.MpscChunkedAtomicArrayQueue;
import org.jctools.queues.atomic.MpscUnboundedAtomicArrayQueue;

/**
 * JCTools queues, in their Unsafe form when {@link PlatformInfo#hasUnsafe()} and in their
 * field-updater ("atomic") form otherwise, so no queue makes a JDK 24+ print an Unsafe warning.
 */
public final class Queues {
    /** Elements per chunk of the unbounded and chunked MPSC queues. */
    public static final int MPSC_CHUNK_SIZE = 1024;
    private static final int MIN_MAX_MPSC_CAPACITY = MPSC_CHUNK_SIZE * 2;

    private Queues() {
    }

    /** An unbounded multi-producer single-consumer queue. */
    public static <T> Queue<T> newMpscQueue() {
        return PlatformInfo.hasUnsafe()
                ? new MpscUnboundedArrayQueue<>(MPSC_CHUNK_SIZE)
                : new MpscUnboundedAtomicArrayQueue<>(MPSC_CHUNK_SIZE);
    }

    /**
     * A multi-producer single-consumer queue that refuses offers beyond {@code maxCapacity}
     * (rounded up to a power of two, at least {@value #MIN_MAX_MPSC_CAPACITY}).
     *
     * @throws IllegalArgumentException if {@code maxCapacity} is not positive
     */
    public static <T> Queue<T> newMpscQueue(int maxCapacity) {
        if (maxCapacity <= 0) {
            throw new IllegalArgumentException("maxCapacity: " + maxCapacity + " (expected: > 0)");
        }
        if (maxCapacity == Integer.MAX_VALUE) {
            return newMpscQueue();
        }
        int capacity = Math.max(Math.min(maxCapacity, 1 << 30), MIN_MAX_MPSC_CAPACITY);
        int chunk = Math.min(MPSC_CHUNK_SIZE, capacity / 2);
        return PlatformInfo.hasUnsafe()
                ? new MpscChunkedArrayQueue<>(chunk, capacity)
                : new MpscChunkedAtomicArrayQueue<>(chunk, capacity);
    }
}
