package io.weir.util.concurrent;

import io.weir.util.platform.LoopLogger;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A fixed set of {@link EventExecutor}s created by {@link #newChild}, handed out by an
 * {@link EventExecutorChooserFactory.EventExecutorChooser}. Submissions to the group go to {@link #next()};
 * shutting the group down shuts every child down, and {@link #terminationFuture()} completes when all have
 * terminated: it succeeds, or fails with the cause of the first child whose own termination future failed (an
 * executor that died, which is also logged at ERROR the moment it happens). Built for extension (event loop groups); thread-safe.
 */
public abstract class MultithreadEventExecutorGroup implements EventExecutorGroup {
    private static final LoopLogger LOGGER = LoopLogger.of(MultithreadEventExecutorGroup.class);

    private final EventExecutor[] children;
    private final List<EventExecutor> readonlyChildren;
    private final EventExecutorChooserFactory.EventExecutorChooser chooser;
    private final Promise<Void> terminationFuture = new DefaultPromise<>(GlobalEventExecutor.INSTANCE);
    private final AtomicInteger terminatedChildren = new AtomicInteger();
    private final AtomicReference<Throwable> firstChildFailure = new AtomicReference<>();

    /**
     * A group of {@code nThreads} executors whose threads come from {@code threadFactory} ({@code null}: a
     * {@link DefaultThreadFactory} named after this class).
     *
     * @param args passed unchanged to every {@link #newChild} call
     */
    protected MultithreadEventExecutorGroup(int nThreads, ThreadFactory threadFactory, Object... args) {
        this(nThreads, threadFactory == null ? null : new ThreadPerChildExecutor(threadFactory),
                DefaultEventExecutorChooserFactory.INSTANCE, args);
    }

    /**
     * A group of {@code nThreads} executors.
     *
     * @param nThreads number of children; 0 means {@link Runtime#availableProcessors()}
     * @param executor starts the children's threads ({@code null}: a {@link DefaultThreadFactory} per group)
     * @param chooserFactory the policy of {@link #next()}
     * @param args passed unchanged to every {@link #newChild} call
     * @throws IllegalArgumentException if {@code nThreads} is negative
     * @throws IllegalStateException if a child could not be created (those created are shut down)
     */
    protected MultithreadEventExecutorGroup(int nThreads, Executor executor,
                                            EventExecutorChooserFactory chooserFactory, Object... args) {
        if (nThreads < 0) {
            throw new IllegalArgumentException("nThreads: " + nThreads + " (expected: >= 0)");
        }
        Objects.requireNonNull(chooserFactory, "chooserFactory");
        if (nThreads == 0) {
            nThreads = Runtime.getRuntime().availableProcessors();
        }
        if (executor == null) {
            executor = new ThreadPerChildExecutor(new DefaultThreadFactory(getClass()));
        }
        children = new EventExecutor[nThreads];
        for (int i = 0; i < nThreads; i++) {
            boolean success = false;
            try {
                children[i] = Objects.requireNonNull(newChild(executor, args), "newChild returned null");
                success = true;
            } catch (Exception e) {
                throw new IllegalStateException("failed to create child event executor " + i, e);
            } finally {
                if (!success) {
                    for (int j = 0; j < i; j++) {
                        children[j].shutdownGracefully(0, 0, TimeUnit.NANOSECONDS);
                    }
                }
            }
        }
        chooser = chooserFactory.newChooser(children);
        FutureListener<Object> terminationListener = future -> {
            Throwable cause = future.cause();
            if (cause != null) {
                // Said at once, not when the last child ends: the group serves on with one executor less.
                firstChildFailure.compareAndSet(null, cause);
                LOGGER.log(System.Logger.Level.ERROR, "An executor of the group terminated abnormally: ",
                        this, cause);
            }
            if (terminatedChildren.incrementAndGet() == children.length) {
                Throwable failure = firstChildFailure.get();
                if (failure == null) {
                    terminationFuture.trySuccess(null);
                } else {
                    terminationFuture.tryFailure(failure);
                }
            }
        };
        for (EventExecutor child : children) {
            child.terminationFuture().addListener(terminationListener);
        }
        readonlyChildren = Collections.unmodifiableList(Arrays.asList(children));
    }

    /**
     * Creates one child. Called from this class's constructor, before the subclass's own fields are set:
     * take configuration from {@code args}, not from fields.
     *
     * @throws Exception to abort the group's construction
     */
    protected abstract EventExecutor newChild(Executor executor, Object... args) throws Exception;

    @Override
    public EventExecutor next() {
        return chooser.next();
    }

    @Override
    public Iterator<EventExecutor> iterator() {
        return readonlyChildren.iterator();
    }

    /** How many executors this group has. */
    public final int executorCount() {
        return children.length;
    }

    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        for (EventExecutor child : children) {
            child.shutdownGracefully(quietPeriod, timeout, unit);
        }
        return terminationFuture;
    }

    @Override
    public Future<?> terminationFuture() {
        return terminationFuture;
    }

    @Override
    public void shutdown() {
        for (EventExecutor child : children) {
            child.shutdown();
        }
    }

    @Override
    public List<Runnable> shutdownNow() {
        for (EventExecutor child : children) {
            child.shutdownNow();
        }
        return Collections.emptyList();
    }

    @Override
    public boolean isShuttingDown() {
        for (EventExecutor child : children) {
            if (!child.isShuttingDown()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean isShutdown() {
        for (EventExecutor child : children) {
            if (!child.isShutdown()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean isTerminated() {
        for (EventExecutor child : children) {
            if (!child.isTerminated()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (EventExecutor child : children) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0 || !child.awaitTermination(remaining, TimeUnit.NANOSECONDS)) {
                return isTerminated();
            }
        }
        return isTerminated();
    }

    @Override
    public void execute(Runnable command) {
        next().execute(command);
    }

    @Override
    public Future<?> submit(Runnable task) {
        return next().submit(task);
    }

    @Override
    public <T> Future<T> submit(Runnable task, T result) {
        return next().submit(task, result);
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
        return next().submit(task);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return next().schedule(command, delay, unit);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return next().schedule(callable, delay, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return next().scheduleAtFixedRate(command, initialDelay, period, unit);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return next().scheduleWithFixedDelay(command, initialDelay, delay, unit);
    }

    @Override
    public <T> List<java.util.concurrent.Future<T>> invokeAll(java.util.Collection<? extends Callable<T>> tasks)
            throws InterruptedException {
        return next().invokeAll(tasks);
    }

    @Override
    public <T> List<java.util.concurrent.Future<T>> invokeAll(java.util.Collection<? extends Callable<T>> tasks,
                                                              long timeout, TimeUnit unit)
            throws InterruptedException {
        return next().invokeAll(tasks, timeout, unit);
    }

    @Override
    public <T> T invokeAny(java.util.Collection<? extends Callable<T>> tasks)
            throws InterruptedException, ExecutionException {
        return next().invokeAny(tasks);
    }

    @Override
    public <T> T invokeAny(java.util.Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        return next().invokeAny(tasks, timeout, unit);
    }

    /** Starts one thread per child from a factory. */
    private static final class ThreadPerChildExecutor implements Executor {
        private final ThreadFactory threadFactory;

        ThreadPerChildExecutor(ThreadFactory threadFactory) {
            this.threadFactory = threadFactory;
        }

        @Override
        public void execute(Runnable command) {
            threadFactory.newThread(command).start();
        }
    }
}
