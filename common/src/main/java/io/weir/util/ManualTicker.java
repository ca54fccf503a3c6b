package io.weir.util;

import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link Ticker} for tests: time stands still until {@link #advance} moves it. Threads blocked in
 * {@link #sleep} wake up once time has moved far enough, and listeners registered with
 * {@link #addAdvanceListener} (executors waiting for a scheduled deadline) are told after every advance.
 * Thread-safe.
 */
public final class ManualTicker implements Ticker {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition advanced = lock.newCondition();
    private final CopyOnWriteArrayList<Runnable> advanceListeners = new CopyOnWriteArrayList<>();
    private volatile long nanos;

    ManualTicker() {
    }

    @Override
    public long nanoTime() {
        return nanos;
    }

    /**
     * Moves time forward, wakes sleepers whose deadline has passed and then runs the advance listeners on
     * the calling thread.
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
        // Outside the lock: a listener wakes another thread, which may read nanoTime() at once.
        for (Runnable listener : advanceListeners) {
            listener.run();
        }
    }

    /** Registers {@code listener} to run after every {@link #advance}; always returns {@code true}. */
    @Override
    public boolean addAdvanceListener(Runnable listener) {
        advanceListeners.add(Objects.requireNonNull(listener, "listener"));
        return true;
    }

    @Override
    public void removeAdvanceListener(Runnable listener) {
        advanceListeners.remove(listener);
    }

    @Override
    public void sleep(long delayNanos) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            awaitTime(nanos + delayNanos);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void sleepUntil(long deadlineNanos) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            awaitTime(deadlineNanos);
        } finally {
            lock.unlock();
        }
    }

    private void awaitTime(long deadlineNanos) throws InterruptedException {
        while (nanos - deadlineNanos < 0) {
            advanced.await();
        }
    }
}
