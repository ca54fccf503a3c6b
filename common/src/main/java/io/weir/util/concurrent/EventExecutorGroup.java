package io.weir.util.concurrent;

import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A set of {@link EventExecutor}s handed out by {@link #next()}, with graceful shutdown.
 *
 * <p>Task submission methods return Weir {@link Future}s and {@link ScheduledFuture}s; a group forwards each
 * submission to {@link #next()}. All methods are thread-safe. Tasks submitted after shutdown has progressed
 * far enough are refused with {@link RejectedExecutionException} (or whatever the executor's rejection
 * handler does).
 */
public interface EventExecutorGroup extends ScheduledExecutorService, Iterable<EventExecutor> {
    /** Quiet period of {@link #shutdownGracefully()}, in seconds. */
    long DEFAULT_SHUTDOWN_QUIET_PERIOD_SECONDS = 2;
    /** Time limit of {@link #shutdownGracefully()}, in seconds. */
    long DEFAULT_SHUTDOWN_TIMEOUT_SECONDS = 15;

    /** Whether {@link #shutdownGracefully} (or {@link #shutdown()}) was called on every executor of the group. */
    boolean isShuttingDown();

    /**
     * {@link #shutdownGracefully(long, long, TimeUnit)} with a {@value #DEFAULT_SHUTDOWN_QUIET_PERIOD_SECONDS}
     * second quiet period and a {@value #DEFAULT_SHUTDOWN_TIMEOUT_SECONDS} second timeout.
     */
    default Future<?> shutdownGracefully() {
        return shutdownGracefully(DEFAULT_SHUTDOWN_QUIET_PERIOD_SECONDS, DEFAULT_SHUTDOWN_TIMEOUT_SECONDS,
                TimeUnit.SECONDS);
    }

    /**
     * Starts an orderly shutdown: tasks keep being accepted and run until no task was submitted for
     * {@code quietPeriod}, or until {@code timeout} has passed since this call, whichever comes first; then
     * new tasks are rejected, the tasks still queued are run, scheduled tasks are cancelled and the executors
     * terminate. Calling it again has no effect.
     *
     * @return {@link #terminationFuture()}
     * @throws IllegalArgumentException if {@code quietPeriod} is negative or greater than {@code timeout}
     */
    Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit);

    /** A future that succeeds once every executor of this group has terminated. */
    Future<?> terminationFuture();

    /** The executor to use for the next piece of work. */
    EventExecutor next();

    @Override
    Iterator<EventExecutor> iterator();

    /**
     * Rejects new tasks at once, then runs the tasks already queued and terminates (no quiet period).
     * Prefer {@link #shutdownGracefully()}.
     */
    @Override
    void shutdown();

    /**
     * Like {@link #shutdown()}, but tasks still queued are discarded instead of run (those that are futures
     * are cancelled). The running task is not interrupted: interrupting an I/O thread closes its channels.
     *
     * @return always an empty list, because only an executor's own thread may take tasks out of its queue
     */
    @Override
    List<Runnable> shutdownNow();

    @Override
    Future<?> submit(Runnable task);

    @Override
    <T> Future<T> submit(Runnable task, T result);

    @Override
    <T> Future<T> submit(Callable<T> task);

    @Override
    ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit);

    @Override
    <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit);

    @Override
    ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit);

    @Override
    ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit);
}
