package io.weir.util;

import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/** Runs {@link TimerTask}s once after a delay, on a background thread. Thread-safe. */
public interface Timer {
    /**
     * Schedules {@code task} to run once after {@code delay} (zero or negative: on the next tick).
     *
     * @return a handle that can cancel the task
     * @throws IllegalStateException if this timer has been stopped
     * @throws RejectedExecutionException if too many timeouts are pending
     */
    Timeout newTimeout(TimerTask task, long delay, TimeUnit unit);

    /**
     * Stops the timer and releases its resources; the tasks that have not run yet never will.
     *
     * @return the timeouts that were neither expired nor cancelled, for the caller to deal with
     * @throws IllegalStateException if called from a task running on the timer's own thread
     */
    Set<Timeout> stop();
}
