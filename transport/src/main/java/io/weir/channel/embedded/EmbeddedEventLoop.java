package io.weir.channel.embedded;

import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.IoHandle;
import io.weir.channel.IoOps;
import io.weir.channel.IoRegistration;
import io.weir.util.Ticker;
import io.weir.util.concurrent.DefaultPromise;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.GlobalEventExecutor;
import io.weir.util.concurrent.Promise;
import io.weir.util.concurrent.RejectedExecutionHandler;
import io.weir.util.concurrent.SingleThreadEventExecutor;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The event loop of an {@link EmbeddedChannel}: it has no thread of its own. Every thread counts as its
 * thread ({@link #inEventLoop()} is always {@code true}), tasks wait in a queue until
 * {@link #runPendingTasks()} runs them on the caller, and scheduled tasks follow a {@link Ticker} (a
 * {@link io.weir.util.ManualTicker} in tests) and run only when {@link #runScheduledPendingTasks()} finds
 * them due. Built on {@link SingleThreadEventExecutor}'s queue and indexed scheduled-task heap; the thread
 * is simply never started.
 *
 * <p>Not thread-safe: use it from one thread at a time, as a test does.
 */
public final class EmbeddedEventLoop extends SingleThreadEventExecutor implements EventLoop {
    private final Promise<Void> terminationFuture = new DefaultPromise<>(GlobalEventExecutor.INSTANCE);
    private boolean shutdown;

    /**
     * A loop reading time from {@code ticker}.
     *
     * @throws NullPointerException if {@code ticker} is null
     */
    public EmbeddedEventLoop(Ticker ticker) {
        super(null, command -> {
            throw new RejectedExecutionException("an embedded event loop runs its tasks on the caller");
        }, Objects.requireNonNull(ticker, "ticker"), Integer.MAX_VALUE, RejectedExecutionHandler.REJECT, null);
    }

    @Override
    public EventLoop next() {
        return this;
    }

    @Override
    public EventLoopGroup parent() {
        return null;
    }

    /** Always {@code true}: the loop runs on whichever thread drives it. */
    @Override
    public boolean inEventLoop(Thread thread) {
        return true;
    }

    /**
     * Queues {@code task} for the next {@link #runPendingTasks()}.
     *
     * @throws RejectedExecutionException after {@link #shutdownGracefully}
     */
    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (shutdown) {
            throw new RejectedExecutionException("event loop shut down");
        }
        super.execute(task);
    }

    /**
     * Runs queued tasks, including those they queue, until none is left; then the scheduled tasks that are
     * due. A task that throws is logged, as on a real loop; {@link EmbeddedChannel} runs tasks itself so it
     * can record such exceptions.
     */
    public void runPendingTasks() {
        Runnable task;
        while ((task = pollTask()) != null) {
            safeExecute(task);
        }
        runScheduledPendingTasks();
    }

    /** Takes the next queued task, or {@code null}; for {@link EmbeddedChannel}. */
    Runnable pollPendingTask() {
        return pollTask();
    }

    /** Cancels every scheduled task; for {@link EmbeddedChannel#close}. */
    void cancelPendingScheduledTasks() {
        cancelScheduledTasks();
    }

    /** Whether tasks are queued. */
    public boolean hasPendingTasks() {
        return hasTasks();
    }

    /**
     * Runs the scheduled tasks whose deadline has passed by the ticker, in deadline order.
     *
     * @return nanoseconds until the next scheduled task is due, or {@code -1} if none is scheduled
     */
    public long runScheduledPendingTasks() {
        long now = currentTimeNanos();
        Runnable task;
        while ((task = pollScheduledTask(now)) != null) {
            task.run();
        }
        return nextScheduledTaskDelayNanos(now);
    }

    /** The next due scheduled task, or {@code null}; for {@link EmbeddedChannel}. */
    Runnable pollDueScheduledTask() {
        return pollScheduledTask(currentTimeNanos());
    }

    /** Nanoseconds until the next scheduled task is due, or {@code -1} if none is scheduled. */
    public long nextScheduledTaskNanos() {
        return nextScheduledTaskDelayNanos(currentTimeNanos());
    }

    /** Never called: this loop's thread is never started, tasks run in {@link #runPendingTasks()}. */
    @Override
    protected void run() {
        throw new IllegalStateException("an embedded event loop has no thread of its own");
    }

    /** Returns a registration that reports no readiness; an embedded loop has no I/O handler. */
    @Override
    public Future<IoRegistration> register(IoHandle handle) {
        Objects.requireNonNull(handle, "handle");
        return newSucceededFuture(new EmbeddedIoRegistration());
    }

    /** Accepts any handle: it is registered but never told about readiness. */
    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return true;
    }

    /**
     * Cancels scheduled tasks, runs the queued ones and refuses further tasks; the termination future
     * completes at once. The quiet period and timeout are ignored: no time passes on an embedded loop.
     */
    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit");
        if (quietPeriod < 0) {
            throw new IllegalArgumentException("quietPeriod: " + quietPeriod + " (expected: >= 0)");
        }
        if (timeout < quietPeriod) {
            throw new IllegalArgumentException(
                    "timeout: " + timeout + " (expected: >= quietPeriod (" + quietPeriod + "))");
        }
        shutdown0();
        return terminationFuture;
    }

    private void shutdown0() {
        if (shutdown) {
            return;
        }
        cancelScheduledTasks();
        Runnable task;
        while ((task = pollTask()) != null) {
            safeExecute(task);
        }
        shutdown = true;
        terminationFuture.trySuccess(null);
    }

    @Override
    public void shutdown() {
        shutdown0();
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown0();
        return Collections.emptyList();
    }

    @Override
    public Future<?> terminationFuture() {
        return terminationFuture;
    }

    @Override
    public boolean isShuttingDown() {
        return shutdown;
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return shutdown;
    }

    /** A registration with nothing behind it. */
    private static final class EmbeddedIoRegistration implements IoRegistration {
        private boolean valid = true;

        @Override
        public long submit(IoOps ops) {
            Objects.requireNonNull(ops, "ops");
            if (!valid) {
                throw new IllegalStateException("registration cancelled");
            }
            return 0;
        }

        @Override
        public boolean isValid() {
            return valid;
        }

        @Override
        public boolean cancel() {
            boolean wasValid = valid;
            valid = false;
            return wasValid;
        }

        @Override
        public <T> T attachment() {
            return null;
        }
    }
}
