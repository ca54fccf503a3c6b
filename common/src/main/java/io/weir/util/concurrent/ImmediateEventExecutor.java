package io.weir.util.concurrent;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Runs each task at once on the calling thread. A task submitted while another one runs on the same thread
 * (a listener completing a promise whose listener completes another...) is queued and run right after the
 * outer task, so chains cannot overflow the stack. Every thread counts as "in the event loop". It does not
 * schedule, cannot be shut down, and its promises may be awaited from any thread. Thread-safe.
 */
public final class ImmediateEventExecutor extends AbstractEventExecutor {
    /** The single instance. */
    public static final ImmediateEventExecutor INSTANCE = new ImmediateEventExecutor();

    private static final FastThreadLocal<ArrayDeque<Runnable>> DELAYED_TASKS = new FastThreadLocal<>() {
        @Override
        protected ArrayDeque<Runnable> initialValue() {
            return new ArrayDeque<>();
        }
    };
    private static final FastThreadLocal<boolean[]> RUNNING = new FastThreadLocal<>() {
        @Override
        protected boolean[] initialValue() {
            return new boolean[1];
        }
    };

    private final Future<?> terminationFuture = new FailedFuture<>(GlobalEventExecutor.INSTANCE,
            new UnsupportedOperationException("ImmediateEventExecutor never terminates"));

    private ImmediateEventExecutor() {
        super(null);
    }

    /** Always {@code true}: tasks run on whichever thread submits them. */
    @Override
    public boolean inEventLoop(Thread thread) {
        return true;
    }

    /**
     * Runs {@code task} now, or right after the task this thread is running; what it throws is logged.
     *
     * @throws NullPointerException if {@code task} is null
     */
    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        boolean[] running = RUNNING.get();
        if (running[0]) {
            DELAYED_TASKS.get().add(task);
            return;
        }
        running[0] = true;
        try {
            safeExecute(task);
            ArrayDeque<Runnable> delayed = DELAYED_TASKS.get();
            Runnable next;
            while ((next = delayed.poll()) != null) {
                safeExecute(next);
            }
        } finally {
            running[0] = false;
        }
    }

    /** A promise that other threads may wait on; its listeners run on the completing thread. */
    @Override
    public <V> Promise<V> newPromise() {
        return new ImmediatePromise<>(this);
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

    /** Never terminates; returns {@code false}. */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return false;
    }

    /** Does nothing; returns {@link #terminationFuture()}. */
    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        return terminationFuture;
    }

    /** A future that has failed with {@link UnsupportedOperationException}. */
    @Override
    public Future<?> terminationFuture() {
        return terminationFuture;
    }

    /** Does nothing: this executor has no thread to stop. */
    @Override
    public void shutdown() {
    }

    private static final class ImmediatePromise<V> extends DefaultPromise<V> {
        ImmediatePromise(EventExecutor executor) {
            super(executor);
        }

        @Override
        protected void checkDeadLock() {
            // Every thread is "in" this executor, and another thread may well complete the promise.
        }
    }
}
