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

    /**
     * Asks this ticker to run {@code listener} each time it jumps forward other than with the wall clock
     * (a {@link ManualTicker} being advanced). Executors register here so that a task scheduled on a manual
     * ticker runs as soon as a test advances time, instead of after a wall-clock wait.
     *
     * <p>The listener runs on the thread that moves the ticker and must be quick and must not throw.
     *
     * @return {@code true} if this ticker will call the listener; {@code false} (the default, and the system
     *         ticker's answer) if time moves with the wall clock and nobody will be told
     */
    default boolean addAdvanceListener(Runnable listener) {
        return false;
    }

    /** Undoes {@link #addAdvanceListener}; does nothing if {@code listener} was not registered. */
    default void removeAdvanceListener(Runnable listener) {
    }

    /**
     * Blocks the calling thread until {@link #nanoTime()} reaches {@code deadlineNanos}. Prefer it to
     * {@link #sleep(long)} with a delay computed from an earlier reading: with a {@link ManualTicker}, time
     * may move between that reading and the sleep, and a relative sleep would then wait past the deadline
     * for an advance that never comes.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    default void sleepUntil(long deadlineNanos) throws InterruptedException {
        long remaining;
        while ((remaining = deadlineNanos - nanoTime()) > 0) {
            sleep(remaining);
        }
    }

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
