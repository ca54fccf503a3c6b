package io.weir.util;

import java.util.concurrent.TimeUnit;

/**
 * A source of monotonic time in nanoseconds, used by executors, timers and protocol timeouts.
 *
 * <p>{@link #system()} reads {@link System#nanoTime()}; {@link #manual()} makes a {@link ManualTicker} that
 * tests move forward by hand, so no test waits for wall-clock time. Implementations are thread-safe.
 */
public interface Ticker {

    /** The ticker backed by {@link System#nanoTime()}. */
    static Ticker system() {
        return SystemTicker.INSTANCE;
    }

    /** A new ticker that only moves when {@link ManualTicker#advance} is called. */
    static ManualTicker manual() {
        return new ManualTicker();
    }

    /** The current time in nanoseconds; only differences between two readings are meaningful. */
    long nanoTime();

    /** {@link #nanoTime()} converted to {@code unit}. */
    default long time(TimeUnit unit) {
        return unit.convert(nanoTime(), TimeUnit.NANOSECONDS);
    }

    /**
     * Blocks the calling thread until this ticker has moved {@code delayNanos} forward.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    void sleep(long delayNanos) throws InterruptedException;

    /** {@link #sleep(long)} with a unit. */
    default void sleep(long delay, TimeUnit unit) throws InterruptedException {
        sleep(unit.toNanos(delay));
    }
}

final class SystemTicker implements Ticker {
    static final SystemTicker INSTANCE = new SystemTicker();

    private SystemTicker() {
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public void sleep(long delayNanos) throws InterruptedException {
        if (delayNanos > 0) {
            TimeUnit.NANOSECONDS.sleep(delayNanos);
        }
    }
}
