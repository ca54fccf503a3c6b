package io.weir.metrics;

/**
 * What an event loop tells about its load. Every method may be called from any thread; the values are written by
 * the loop thread and read here without synchronisation, so they are best effort (a little stale, never torn).
 */
public interface EventLoopMetrics {
    /** Tasks waiting in the loop's queue (scheduled tasks that are not due yet are not counted). */
    int pendingTasks();

    /** Channels registered with the loop's I/O handler, or -1 if the handler does not count them. */
    int registeredChannels();

    /** Nanoseconds the loop has spent dispatching I/O (not waiting for it) since it started. */
    long ioTimeNanos();

    /**
     * The share of the loop's life spent dispatching I/O, from 0 to 1: {@link #ioTimeNanos()} over the time since
     * the loop was created. (For the share over a recent window, rate the {@code ioTimeNanos} counter.)
     */
    double ioTimeRatio();

    /** How many times another thread woke the loop from a sleep to hand it a task. */
    long wakeups();

    /**
     * Bytes the loop's connections read from their peers since the loop started (as the socket saw them: TLS
     * records, HTTP framing and all), or 0 if the loop's transport does not count them.
     */
    default long bytesRead() {
        return 0;
    }

    /**
     * Bytes the loop's connections handed to the kernel to send since the loop started, or 0 if the loop's
     * transport does not count them.
     */
    default long bytesWritten() {
        return 0;
    }

    /** Tasks run since the loop started. */
    long totalTasksRun();

    /**
     * The longest task seen since the loop started, in nanoseconds; 0 while task timing is off (see
     * {@link TaskTiming}).
     */
    long longestTaskNanos();

    /** Tasks that ran for {@link TaskTiming#slowTaskThresholdNanos()} or longer; 0 while task timing is off. */
    long slowTasks();
}
