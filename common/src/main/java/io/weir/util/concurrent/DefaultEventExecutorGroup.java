package io.weir.util.concurrent;

import io.weir.util.Ticker;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.function.UnaryOperator;

/** A group of {@link DefaultEventExecutor}s, for spreading non-I/O work over several threads. Thread-safe. */
public final class DefaultEventExecutorGroup extends MultithreadEventExecutorGroup {

    /** {@code nThreads} executors (0: one per processor) on {@link DefaultThreadFactory} threads. */
    public DefaultEventExecutorGroup(int nThreads) {
        this(nThreads, (ThreadFactory) null);
    }

    /** {@code nThreads} executors whose threads come from {@code threadFactory} ({@code null}: default). */
    public DefaultEventExecutorGroup(int nThreads, ThreadFactory threadFactory) {
        super(nThreads, threadFactory, Ticker.system(), SingleThreadEventExecutor.DEFAULT_MAX_PENDING_TASKS,
                RejectedExecutionHandler.REJECT, null);
    }

    /**
     * {@code nThreads} executors with every option.
     *
     * @param executor starts the threads ({@code null}: default thread factory)
     * @param chooserFactory the policy of {@link #next()}
     * @param ticker clock of all children
     * @param maxPendingTasks per-child queue bound ({@link Integer#MAX_VALUE}: unbounded)
     * @param rejectedHandler what a child does with a task it refuses
     * @param taskDecorator applied to every submitted task, or {@code null}
     */
    public DefaultEventExecutorGroup(int nThreads, Executor executor, EventExecutorChooserFactory chooserFactory,
                                     Ticker ticker, int maxPendingTasks, RejectedExecutionHandler rejectedHandler,
                                     UnaryOperator<Runnable> taskDecorator) {
        super(nThreads, executor, chooserFactory, ticker, maxPendingTasks, rejectedHandler, taskDecorator);
    }

    @SuppressWarnings("unchecked")
    @Override
    protected EventExecutor newChild(Executor executor, Object... args) {
        return new DefaultEventExecutor(this, executor, (Ticker) args[0], (Integer) args[1],
                (RejectedExecutionHandler) args[2], (UnaryOperator<Runnable>) args[3]);
    }
}
