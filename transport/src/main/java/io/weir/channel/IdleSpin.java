package io.weir.channel;

/**
 * How long an idle event loop watches its task queue before its I/O handler may block, adapted to how its
 * sleeps end. Loop thread only.
 *
 * <p>A sleep that a submission from another thread ended less than {@code maxNanos} after it began (a near
 * miss) means a longer watch would have caught that task awake, sparing the submitter a wake-up system call and
 * the loop the scheduler's latency: the watch grows to half again that gap, and at least doubles, up to
 * {@code maxNanos}. A sleep that outlasted {@code maxNanos}, or that I/O or a timer ended (which the watch
 * cannot see), means watching was wasted CPU: the watch halves, down to {@code minNanos}. So a loop fed in
 * bursts with short gaps by other threads stays awake between them, while a loop woken by I/O, idle for long,
 * or fed more slowly than {@code maxNanos} apart spins no more than {@code minNanos} per sleep.
 */
final class IdleSpin {
    private final long minNanos;
    private final long maxNanos;
    private long nanos;

    /**
     * @param minNanos the watch after long or I/O-ended sleeps; {@code 0} turns watching (and adapting) off
     * @param maxNanos the longest watch; raised to {@code minNanos} if lower
     * @throws IllegalArgumentException if {@code minNanos} is negative
     */
    IdleSpin(long minNanos, long maxNanos) {
        if (minNanos < 0) {
            throw new IllegalArgumentException("minNanos: " + minNanos + " (expected: >= 0)");
        }
        this.minNanos = minNanos;
        this.maxNanos = Math.max(minNanos, maxNanos);
        this.nanos = minNanos;
    }

    /** How long the next watch lasts, in nanoseconds; 0: block at once. */
    long nanos() {
        return nanos;
    }

    /**
     * Adapts the watch to a sleep that just ended.
     *
     * @param wokenAfterNanos how long after the loop let its handler block a submitter woke it, or a negative
     *        number if no submitter did (I/O, a timer or nothing ended the sleep)
     */
    void sleepEnded(long wokenAfterNanos) {
        if (minNanos == 0) {
            return;
        }
        if (wokenAfterNanos >= 0 && wokenAfterNanos < maxNanos) {
            nanos = Math.min(maxNanos, Math.max(nanos * 2, wokenAfterNanos + (wokenAfterNanos >> 1)));
        } else if (nanos > minNanos) {
            nanos = Math.max(minNanos, nanos >> 1);
        }
    }
}
