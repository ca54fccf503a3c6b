package io.weir.util.concurrent;

/**
 * The result of a task scheduled on an {@link EventExecutor}: a Weir {@link Future} (listeners, sync) that
 * is also a JDK {@link java.util.concurrent.ScheduledFuture} (delay, ordering). A periodic task's future
 * completes only when the task is cancelled or throws.
 *
 * @param <V> the result type
 */
public interface ScheduledFuture<V> extends Future<V>, java.util.concurrent.ScheduledFuture<V> {
}
