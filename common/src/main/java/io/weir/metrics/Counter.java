package io.weir.metrics;

import java.util.concurrent.atomic.LongAdder;

/**
 * A monotonic count of events, cheap to increment from many threads at once (a {@link LongAdder}: no lock, no
 * allocation once warm). Thread-safe; {@link #sum()} is exact only while nobody increments.
 */
public final class Counter {
    private final LongAdder adder = new LongAdder();

    /** A counter at zero. */
    public Counter() {
    }

    /** Counts one event. */
    public void increment() {
        adder.increment();
    }

    /**
     * Counts {@code n} events (or bytes).
     *
     * @throws IllegalArgumentException if {@code n} is negative: a counter never goes down
     */
    public void add(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("n: " + n + " (expected: >= 0)");
        }
        adder.add(n);
    }

    /** The events counted so far. */
    public long sum() {
        return adder.sum();
    }

    @Override
    public String toString() {
        return Long.toString(sum());
    }
}
