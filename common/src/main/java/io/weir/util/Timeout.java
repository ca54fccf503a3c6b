package io.weir.util;

/** A handle to a {@link TimerTask} scheduled on a {@link Timer}. Thread-safe. */
public interface Timeout {
    /** The timer that created this timeout. */
    Timer timer();

    /** The task this timeout runs. */
    TimerTask task();

    /** Whether the timeout has expired (its task was started or handed to the timer's executor). */
    boolean isExpired();

    /** Whether {@link #cancel()} succeeded. */
    boolean isCancelled();

    /**
     * Prevents the task from running. Cheap (O(1)); the timer forgets the timeout on its next tick.
     *
     * @return {@code true} if this call cancelled it; {@code false} if it had already expired or been cancelled
     */
    boolean cancel();
}
