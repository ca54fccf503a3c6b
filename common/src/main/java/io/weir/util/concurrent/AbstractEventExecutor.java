package io.weir.util.concurrent;

import io.weir.util.platform.LoopLogger;
import java.lang.System.Logger.Level;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Base of Weir's executors: submissions become {@link PromiseTask}s (a task and its {@link Promise} in one
 * object) handed to {@link #execute(Runnable)}, and the executor is a group of one. Scheduling is not
 * supported here; {@link AbstractScheduledEventExecutor} adds it. Built for extension; thread-safe as far
 * as the subclass's {@code execute} is.
 */
public abstract class AbstractEventExecutor extends AbstractExecutorService implements EventExecutor {
    private static final LoopLogger LOGGER = LoopLogger.of(AbstractEventExecutor.class);

    private final EventExecutorGroup parent;

    /** An executor belonging to {@code parent} ({@code null}: standalone). */
    protected AbstractEventExecutor(EventExecutorGroup parent) {
        this.parent = parent;
    }

    @Override
    public EventExecutorGroup parent() {
        return parent;
    }

    @Override
    public EventExecutor next() {
        return this;
    }

    @Override
    public Iterator<EventExecutor> iterator() {
        return new Iterator<>() {
            private boolean consumed;

            @Override
            public boolean hasNext() {
                return !consumed;
            }

            @Override
            public EventExecutor next() {
                if (consumed) {
                    throw new NoSuchElementException();
                }
                consumed = true;
                return AbstractEventExecutor.this;
            }
        };
    }

    /** {@inheritDoc} This implementation calls {@link #shutdown()} and returns an empty list. */
    @Override
    public List<Runnable> shutdownNow() {
        shutdown();
        return Collections.emptyList();
    }

    @Override
    public Future<?> submit(Runnable task) {
        return (Future<?>) super.submit(task);
    }

    @Override
    public <T> Future<T> submit(Runnable task, T result) {
        return (Future<T>) super.submit(task, result);
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
        return (Future<T>) super.submit(task);
    }

    @Override
    protected final <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
        return new PromiseTask<>(this, runnable, value);
    }

    @Override
    protected final <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
        return new PromiseTask<>(this, callable);
    }

    /** Not supported by this executor; {@link AbstractScheduledEventExecutor} supports it. */
    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException(getClass().getName() + " does not schedule tasks");
    }

    /** Not supported by this executor; {@link AbstractScheduledEventExecutor} supports it. */
    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException(getClass().getName() + " does not schedule tasks");
    }

    /** Not supported by this executor; {@link AbstractScheduledEventExecutor} supports it. */
    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        throw new UnsupportedOperationException(getClass().getName() + " does not schedule tasks");
    }

    /** Not supported by this executor; {@link AbstractScheduledEventExecutor} supports it. */
    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException(getClass().getName() + " does not schedule tasks");
    }

    /** Runs {@code task}, logging instead of propagating whatever it throws, so one bad task cannot kill a loop. */
    protected static void safeExecute(Runnable task) {
        try {
            task.run();
        } catch (Throwable t) {
            LOGGER.log(Level.WARNING, "A task raised an exception. Task: ", task, t);
        }
    }
}
