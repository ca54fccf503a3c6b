package io.weir.metrics;

import io.weir.util.platform.SystemProperties;

/**
 * Whether event loops time each task they run, for {@link EventLoopMetrics#longestTaskNanos()},
 * {@link EventLoopMetrics#slowTasks()} and the JFR event of a slow task ({@link WeirEvents}). Off by default: a
 * timed task costs two clock reads. It turns on with {@code -Dio.weir.eventLoop.taskTiming=true}, with
 * {@link #enable()}, or when event loops are added to a {@link WeirMetrics}; it never turns off again. A task that
 * runs for {@code io.weir.eventLoop.slowTaskThresholdNanos} ({@value #DEFAULT_SLOW_TASK_THRESHOLD_NANOS} ns by
 * default) or longer counts as slow. Thread-safe.
 */
public final class TaskTiming {
    /**
     * Default for {@code io.weir.eventLoop.slowTaskThresholdNanos}: 10 ms, long enough that only a task that holds
     * up every other channel of its loop (blocking I/O, a lock, a large computation) is reported.
     */
    public static final long DEFAULT_SLOW_TASK_THRESHOLD_NANOS = 10_000_000;
    private static final long SLOW_TASK_THRESHOLD_NANOS = Math.max(1,
            SystemProperties.getLong("io.weir.eventLoop.slowTaskThresholdNanos", DEFAULT_SLOW_TASK_THRESHOLD_NANOS));
    // Read once per batch of tasks by every loop: volatile so that enable() reaches loops already running.
    private static volatile boolean enabled = SystemProperties.getBoolean("io.weir.eventLoop.taskTiming", false);

    private TaskTiming() {
    }

    /** Turns task timing on for every event loop, from their next batch of tasks. */
    public static void enable() {
        enabled = true;
    }

    /** Whether event loops time their tasks. */
    public static boolean isEnabled() {
        return enabled;
    }

    /** The duration from which a task counts as slow, in nanoseconds. */
    public static long slowTaskThresholdNanos() {
        return SLOW_TASK_THRESHOLD_NANOS;
    }
}
