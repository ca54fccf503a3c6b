package io.weir.util.concurrent;

import io.weir.util.Ticker;
import io.weir.util.internal.DefaultPriorityQueue;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * An {@link AbstractEventExecutor} that schedules tasks in an indexed binary heap kept by the executor
 * thread, so a cancel removes its task in O(log n) rather than leaving a tombstone behind.
 *
 * <p>Time comes from the {@link Ticker} given at construction; deadlines are nanoseconds since the executor
 * was created, which keeps them positive and free of overflow (far deadlines saturate at
 * {@link Long#MAX_VALUE}). Scheduling from a foreign thread sends the task through {@link #execute} first;
 * only the executor thread touches the heap. Due tasks run in deadline order, ties in the order the executor
 * took them in; a task scheduled from another thread whose deadline has already passed when the executor
 * takes it in may therefore run before an earlier-deadline task that is still in transit (this only shows
 * when time jumps, as with a manual ticker). The {@code protected} helpers are for the subclass's run loop
 * and may only be called on the executor thread.
 */
public abstract class AbstractScheduledEventExecutor extends AbstractEventExecutor {
    private static final int INITIAL_SCHEDULED_QUEUE_CAPACITY = 16;

    private final Ticker ticker;
    private final long originNanos;
    // Confined to the executor thread.
    private DefaultPriorityQueue<ScheduledFutureTask<?>> scheduledTaskQueue;
    // Starts at 1: ScheduledFutureTask reads an id of 0 as "not accepted yet".
    private long nextTaskId = 1;

    /**
     * An executor reading time from {@code ticker}.
     *
     * @throws NullPointerException if {@code ticker} is null
     */
    protected AbstractScheduledEventExecutor(EventExecutorGroup parent, Ticker ticker) {
        super(parent);
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.originNanos = ticker.nanoTime();
    }

    /** The ticker deadlines are measured with. */
    public final Ticker ticker() {
        return ticker;
    }

    /** Nanoseconds since this executor was created, by its ticker; the time base of all deadlines. */
    protected final long currentTimeNanos() {
        return ticker.nanoTime() - originNanos;
    }

    /** {@code now + delay}, saturating at {@link Long#MAX_VALUE}; both are assumed non-negative. */
    static long deadlineNanos(long nowNanos, long delayNanos) {
        long deadline = nowNanos + delayNanos;
        return deadline < 0 ? Long.MAX_VALUE : deadline;
    }

    private DefaultPriorityQueue<ScheduledFutureTask<?>> scheduledTaskQueue() {
        DefaultPriorityQueue<ScheduledFutureTask<?>> queue = scheduledTaskQueue;
        if (queue == null) {
            queue = new DefaultPriorityQueue<>(ScheduledFutureTask.DEADLINE_ORDER, INITIAL_SCHEDULED_QUEUE_CAPACITY);
            scheduledTaskQueue = queue;
        }
        return queue;
    }

    /** Whether scheduled tasks are waiting in the heap. Executor thread only. */
    protected final boolean hasScheduledTasks() {
        DefaultPriorityQueue<ScheduledFutureTask<?>> queue = scheduledTaskQueue;
        return queue != null && !queue.isEmpty();
    }

    /** How many scheduled tasks are in the heap. Executor thread only. */
    protected final int scheduledTaskCount() {
        DefaultPriorityQueue<ScheduledFutureTask<?>> queue = scheduledTaskQueue;
        return queue == null ? 0 : queue.size();
    }

    /** The earliest deadline in the heap ({@link #currentTimeNanos()} base), or -1 if none. Executor thread only. */
    protected final long nextScheduledTaskDeadlineNanos() {
        DefaultPriorityQueue<ScheduledFutureTask<?>> queue = scheduledTaskQueue;
        ScheduledFutureTask<?> task = queue == null ? null : queue.peek();
        return task == null ? -1 : task.deadlineNanos();
    }

    /** Nanoseconds from {@code nowNanos} until the earliest deadline (0 if due), or -1 if none. Executor thread only. */
    protected final long nextScheduledTaskDelayNanos(long nowNanos) {
        long deadline = nextScheduledTaskDeadlineNanos();
        return deadline < 0 ? -1 : Math.max(0, deadline - nowNanos);
    }

    /**
     * Removes and returns a scheduled task whose deadline is at or before {@code nowNanos}, or {@code null}.
     * Run the result with {@link Runnable#run()}. Executor thread only.
     */
    protected final Runnable pollScheduledTask(long nowNanos) {
        DefaultPriorityQueue<ScheduledFutureTask<?>> queue = scheduledTaskQueue;
        if (queue == null) {
            return null;
        }
        ScheduledFutureTask<?> task = queue.peek();
        if (task == null || task.deadlineNanos() > nowNanos) {
            return null;
        }
        return queue.poll();
    }

    /** Cancels and drops every task in the heap (at shutdown). Executor thread only. */
    protected final void cancelScheduledTasks() {
        DefaultPriorityQueue<ScheduledFutureTask<?>> queue = scheduledTaskQueue;
        if (queue == null || queue.isEmpty()) {
            return;
        }
        ScheduledFutureTask<?> task;
        while ((task = queue.poll()) != null) {
            // Already out of the heap, so cancel()'s removal finds nothing to do.
            task.cancel(false);
        }
    }

    final void addToHeap(ScheduledFutureTask<?> task) {
        // A periodic task keeps its first number, so it stays ahead of later tasks with the same deadline.
        if (!task.isAccepted()) {
            task.accept(nextTaskId++);
        }
        scheduledTaskQueue().add(task);
    }

    final void removeFromHeap(ScheduledFutureTask<?> task) {
        if (task.priorityQueueIndex() != ScheduledFutureTask.INDEX_NOT_IN_QUEUE) {
            scheduledTaskQueue().remove(task);
        }
    }

    /** Called after {@code task} was cancelled on any thread: takes it out of the heap on the executor. */
    final void removeScheduled(ScheduledFutureTask<?> task) {
        if (inEventLoop()) {
            removeFromHeap(task);
        } else {
            enqueueRemoval(task);
        }
    }

    /**
     * Hands a cancelled task to the executor thread so its {@link ScheduledFutureTask#run()} removes it from
     * the heap. Must not throw: a cancel succeeded already. If the executor cannot take it (terminated, or a
     * full bounded queue), the cancelled task stays in the heap until it is due or the executor terminates,
     * and is then dropped without running.
     */
    abstract void enqueueRemoval(ScheduledFutureTask<?> task);

    /** Hands a task scheduled from a foreign thread to the executor, or rejects it. */
    abstract void enqueueScheduled(ScheduledFutureTask<?> task);

    /** Applied to each user task before it is scheduled or executed; identity unless the subclass decorates tasks. */
    Runnable decorateScheduled(Runnable task) {
        return task;
    }

    /** Whether {@link #decorateScheduled} changes tasks, so callables need wrapping to pass through it. */
    boolean decoratesTasks() {
        return false;
    }

    private <V> ScheduledFuture<V> schedule(ScheduledFutureTask<V> task) {
        if (inEventLoop()) {
            addToHeap(task);
        } else {
            enqueueScheduled(task);
        }
        return task;
    }

    private long deadlineFromNow(long delay, TimeUnit unit) {
        return deadlineNanos(currentTimeNanos(), Math.max(0, unit.toNanos(delay)));
    }

    /** {@inheritDoc} A negative delay means "now". */
    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(unit, "unit");
        // Arguments first, allocation last: Java evaluates `new` before its arguments, and a clock read (a call)
        // between the allocation and the constructor's stores stops C2 from folding those stores into the
        // allocation, so each task would be zeroed twice and pay G1's full store barriers.
        long deadline = deadlineFromNow(delay, unit);
        Runnable task = decorateScheduled(command);
        return schedule(new ScheduledFutureTask<Void>(this, task, deadline, 0));
    }

    /** {@inheritDoc} A negative delay means "now". */
    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        Objects.requireNonNull(callable, "callable");
        Objects.requireNonNull(unit, "unit");
        Callable<V> task = decoratesTasks() ? new DecoratedCallable<>(callable, this) : callable;
        long deadline = deadlineFromNow(delay, unit);
        return schedule(new ScheduledFutureTask<>(this, task, deadline));
    }

    /**
     * {@inheritDoc} Runs are counted from the first deadline, so a late run is followed by catch-up runs.
     *
     * @throws IllegalArgumentException if {@code period} is not positive
     */
    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(unit, "unit");
        if (period <= 0) {
            throw new IllegalArgumentException("period: " + period + " (expected: > 0)");
        }
        long periodNanos = Math.max(1, unit.toNanos(period));
        long deadline = deadlineFromNow(initialDelay, unit);
        Runnable task = decorateScheduled(command);
        return schedule(new ScheduledFutureTask<Void>(this, task, deadline, periodNanos));
    }

    /**
     * {@inheritDoc} The next run is {@code delay} after the previous one ended.
     *
     * @throws IllegalArgumentException if {@code delay} is not positive
     */
    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(unit, "unit");
        if (delay <= 0) {
            throw new IllegalArgumentException("delay: " + delay + " (expected: > 0)");
        }
        long delayNanos = Math.max(1, unit.toNanos(delay));
        long deadline = deadlineFromNow(initialDelay, unit);
        Runnable task = decorateScheduled(command);
        return schedule(new ScheduledFutureTask<Void>(this, task, deadline, -delayNanos));
    }

    /**
     * A callable made to pass through the executor's Runnable decorator. It is deliberately not itself a
     * Runnable: {@link PromiseTask} would then run it as one and lose the result.
     */
    private static final class DecoratedCallable<V> implements Callable<V> {
        private final Callable<V> callable;
        private final Runnable decorated;
        private V result;
        private Exception failure;

        DecoratedCallable(Callable<V> callable, AbstractScheduledEventExecutor executor) {
            this.callable = callable;
            this.decorated = executor.decorateScheduled(this::callAndStore);
        }

        private void callAndStore() {
            try {
                result = callable.call();
            } catch (Exception e) {
                failure = e;
            }
        }

        @Override
        public V call() throws Exception {
            result = null;
            failure = null;
            decorated.run();
            if (failure != null) {
                throw failure;
            }
            return result;
        }

        @Override
        public String toString() {
            return callable.toString();
        }
    }
}
