package io.weir.util.concurrent;

import io.weir.util.Ticker;
import io.weir.util.platform.SystemProperties;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A process-wide executor on a single daemon thread that starts on demand and exits after a quiet period
 * without work, so an idle application keeps no thread for it. Good for small housekeeping (listeners of
 * termination futures); not for heavy work. It cannot be shut down. Thread-safe.
 */
public final class GlobalEventExecutor extends AbstractScheduledEventExecutor {
    /**
     * Default for {@code io.weir.globalEventExecutor.quietPeriodMillis}: how long the thread waits for work
     * before it exits.
     */
    public static final long DEFAULT_QUIET_PERIOD_MILLIS = 1000;
    private static final long QUIET_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(Math.max(1,
            SystemProperties.getLong("io.weir.globalEventExecutor.quietPeriodMillis", DEFAULT_QUIET_PERIOD_MILLIS)));

    /** The single instance. */
    public static final GlobalEventExecutor INSTANCE = new GlobalEventExecutor();

    private final BlockingQueue<Runnable> taskQueue = new LinkedBlockingQueue<>();
    private final AtomicBoolean started = new AtomicBoolean();
    private final ThreadFactory threadFactory =
            new DefaultThreadFactory(DefaultThreadFactory.toPoolName(GlobalEventExecutor.class), true);
    private final Future<?> terminationFuture =
            new FailedFuture<>(this, new UnsupportedOperationException("GlobalEventExecutor never terminates"));
    private volatile Thread thread;

    private GlobalEventExecutor() {
        super(null, Ticker.system());
    }

    @Override
    public boolean inEventLoop(Thread thread) {
        return thread == this.thread;
    }

    /** Queues {@code task} and starts the thread if it is not running. */
    @Override
    public void execute(Runnable task) {
        taskQueue.add(Objects.requireNonNull(task, "task"));
        startThreadIfNeeded();
    }

    @Override
    void enqueueScheduled(ScheduledFutureTask<?> task) {
        execute(task);
    }

    @Override
    void enqueueRemoval(ScheduledFutureTask<?> task) {
        execute(task);
    }

    private void startThreadIfNeeded() {
        if (!started.get() && started.compareAndSet(false, true)) {
            Thread t = threadFactory.newThread(this::runWorker);
            // The thread may outlive whoever triggered it; do not pin their class loader.
            t.setContextClassLoader(null);
            thread = t;
            t.start();
        }
    }

    private void runWorker() {
        for (;;) {
            Runnable task = takeTask();
            if (task != null) {
                safeExecute(task);
                continue;
            }
            if (!taskQueue.isEmpty() || hasScheduledTasks()) {
                continue;
            }
            started.set(false);
            // A task queued after the emptiness check above found "started" still true and did not start a
            // thread: this one must stay, unless a new thread took over already.
            if (taskQueue.isEmpty() || !started.compareAndSet(false, true)) {
                return;
            }
        }
    }

    /** The next due or queued task; {@code null} after a quiet period without any. */
    private Runnable takeTask() {
        for (;;) {
            long now = currentTimeNanos();
            Runnable scheduled = pollScheduledTask(now);
            if (scheduled != null) {
                return scheduled;
            }
            long delay = nextScheduledTaskDelayNanos(now);
            try {
                Runnable task = taskQueue.poll(delay < 0 ? QUIET_PERIOD_NANOS : delay, TimeUnit.NANOSECONDS);
                if (task != null || delay < 0) {
                    return task;
                }
            } catch (InterruptedException e) {
                return null;
            }
        }
    }

    /**
     * Waits until the thread has exited after running out of work; for tests and orderly JVM exits.
     *
     * @return whether no thread is running now
     * @throws IllegalStateException if called from this executor's thread
     */
    public boolean awaitInactivity(long timeout, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit");
        if (inEventLoop()) {
            throw new IllegalStateException("cannot await inactivity of the current thread");
        }
        Thread t = thread;
        if (t == null) {
            return true;
        }
        t.join(Math.max(1, unit.toMillis(timeout)));
        return !t.isAlive();
    }

    /** Tasks waiting in the queue. */
    public int pendingTasks() {
        return taskQueue.size();
    }

    @Override
    public boolean isShuttingDown() {
        return false;
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    /** Never terminates; returns {@code false} after waiting. */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return false;
    }

    /** Does nothing: the global executor cannot be shut down. Returns {@link #terminationFuture()}. */
    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        return terminationFuture;
    }

    /** A future that has failed with {@link UnsupportedOperationException}: this executor never terminates. */
    @Override
    public Future<?> terminationFuture() {
        return terminationFuture;
    }

    /**
     * Always throws.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public void shutdown() {
        throw new UnsupportedOperationException("GlobalEventExecutor cannot be shut down");
    }
}
