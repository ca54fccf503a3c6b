package io.weir.metrics;

import java.util.concurrent.atomic.LongAdder;

/**
 * A level that goes up and down (open connections, active streams), kept as a {@link LongAdder} so that the
 * threads changing it never contend. Thread-safe; {@link #value()} is exact only while nobody changes it.
 */
public final class Gauge {
    private final LongAdder adder = new LongAdder();

    /** A gauge at zero. */
    public Gauge() {
    }

    /** One more. */
    public void increment() {
        adder.increment();
    }

    /** One fewer. */
    public void decrement() {
        adder.decrement();
    }

    /** The current level. */
    public long value() {
        return adder.sum();
    }

    @Override
    public String toString() {
        return Long.toString(value());
    }
}
