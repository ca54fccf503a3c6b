package io.weir.util;

/** A task run once by a {@link Timer} when its {@link Timeout} expires. */
@FunctionalInterface
public interface TimerTask {
    /**
     * Runs the task, on the timer's worker thread or on the executor the timer was given. An exception
     * thrown here is logged by the timer and does not affect other timeouts.
     *
     * @param timeout the timeout this task was scheduled with
     */
    void run(Timeout timeout) throws Exception;
}
