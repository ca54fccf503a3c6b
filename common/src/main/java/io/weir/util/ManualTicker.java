package io.weir.util;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link Ticker} for tests: time stands still until {@link #advance} moves it. Threads blocked in
 * {@link #sleep} wake up once time has moved far enough. Thread-safe.
 */
public final class ManualTicker implements Ticker {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition advanced = lock.newCondition();
    private volatile long nanos;

    ManualTicker() {
    }

    @Override
    public long nanoTime() {
        return nanos;
    }

    /**
     * Moves time forward and wakes sleepers whose deadline has passed.
     *
     * @throws IllegalArgumentException if {@code amount} is negative
     */
    public void advance(long amount, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit");
        if (amount < 0) {
            throw new IllegalArgumentException("amount: " + amount + " (expected: >= 0)");
        }
        lock.lock();
        try {
            nanos += unit.toNanos(amount);
            advanced.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void sleep(long delayNanos) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            long deadline = nanos + delayNanos;
            while (nanos - deadline < 0) {
                advanced.await();
            }
        } finally {
            lock.unlock();
        }
    }
}
