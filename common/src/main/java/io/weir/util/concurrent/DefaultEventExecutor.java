package io.weir.util.concurrent;

import io.weir.util.Ticker;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.function.UnaryOperator;

/**
 * A {@link SingleThreadEventExecutor} that only runs tasks: it sleeps until a task is submitted or a
 * scheduled task is due. Use it for work that must stay on one thread without I/O. Thread-safe.
 */
public final class DefaultEventExecutor extends SingleThreadEventExecutor {

    /** A standalone executor on a {@link DefaultThreadFactory} thread, with the system ticker. */
    public DefaultEventExecutor() {
        this(null, (ThreadFactory) null);
    }

    /** A standalone executor whose thread comes from {@code threadFactory}. */
    public DefaultEventExecutor(ThreadFactory threadFactory) {
        this(null, threadFactory);
    }

    /** A standalone executor reading time from {@code ticker} (tests pass a {@link io.weir.util.ManualTicker}). */
    public DefaultEventExecutor(Ticker ticker) {
        this(null, null, ticker, DEFAULT_MAX_PENDING_TASKS, RejectedExecutionHandler.REJECT, null);
    }

    /** An executor of {@code parent} whose thread comes from {@code threadFactory} ({@code null}: default). */
    public DefaultEventExecutor(EventExecutorGroup parent, ThreadFactory threadFactory) {
        super(parent, threadFactory);
    }

    /**
     * An executor with every option; see
     * {@link SingleThreadEventExecutor#SingleThreadEventExecutor(EventExecutorGroup, Executor, Ticker, int,
     * RejectedExecutionHandler, UnaryOperator)}.
     */
    public DefaultEventExecutor(EventExecutorGroup parent, Executor executor, Ticker ticker, int maxPendingTasks,
                                RejectedExecutionHandler rejectedHandler, UnaryOperator<Runnable> taskDecorator) {
        super(parent, executor, ticker, maxPendingTasks, rejectedHandler, taskDecorator);
    }

    @Override
    protected void run() {
        for (;;) {
            Runnable task = takeTask();
            if (task != null) {
                runTask(task);
                // Drain what piled up meanwhile in one iteration; this also updates the metrics.
                runAllTasks();
            }
            if (confirmShutdown()) {
                return;
            }
        }
    }
}
