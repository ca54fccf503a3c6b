package io.weir.util;

import io.weir.util.platform.LoopLogger;
import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A timeout of a {@link HashedWheelTimer}. Its state moves once, from {@code PENDING} to {@code EXPIRED} or
 * {@code CANCELLED}, by compare-and-set from any thread; the bucket links are touched only by the worker.
 */
final class HashedWheelTimeout implements Timeout, Runnable {
    private static final LoopLogger LOGGER = LoopLogger.of(HashedWheelTimer.class);
    private static final int PENDING = 0;
    private static final int CANCELLED = 1;
    private static final int EXPIRED = 2;
    private static final AtomicIntegerFieldUpdater<HashedWheelTimeout> STATE =
            AtomicIntegerFieldUpdater.newUpdater(HashedWheelTimeout.class, "state");

    private final HashedWheelTimer timer;
    private final TimerTask task;
    /** Nanoseconds after the timer's start at which the task is due. */
    final long deadline;
    private volatile int state;

    // Worker thread only.
    long remainingRounds;
    HashedWheelTimeout next;
    HashedWheelTimeout prev;
    HashedWheelBucket bucket;

    HashedWheelTimeout(HashedWheelTimer timer, TimerTask task, long deadline) {
        this.timer = timer;
        this.task = task;
        this.deadline = deadline;
    }

    @Override
    public Timer timer() {
        return timer;
    }

    @Override
    public TimerTask task() {
        return task;
    }

    @Override
    public boolean isExpired() {
        return state == EXPIRED;
    }

    @Override
    public boolean isCancelled() {
        return state == CANCELLED;
    }

    boolean isPending() {
        return state == PENDING;
    }

    @Override
    public boolean cancel() {
        if (!STATE.compareAndSet(this, PENDING, CANCELLED)) {
            return false;
        }
        timer.onCancelled(this);
        return true;
    }

    /** Worker thread: marks the timeout expired and runs (or hands off) its task, unless it was cancelled. */
    void expire() {
        if (!STATE.compareAndSet(this, PENDING, EXPIRED)) {
            return;
        }
        timer.onExpired(this);
    }

    /** Runs the task, logging what it throws: one failing task must not kill the worker. */
    @Override
    public void run() {
        try {
            task.run(this);
        } catch (Throwable t) {
            LOGGER.log(Level.WARNING, "TimerTask ", task, " threw", t);
        }
    }

    @Override
    public String toString() {
        long remainingNanos = deadline - timer.elapsedNanos();
        String s = state == CANCELLED ? "cancelled" : state == EXPIRED ? "expired"
                : "due in " + TimeUnit.NANOSECONDS.toMillis(remainingNanos) + " ms";
        return "HashedWheelTimeout(" + s + ", task: " + task + ')';
    }
}
