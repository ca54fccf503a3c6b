package io.weir.util.concurrent;

import io.weir.util.internal.PriorityQueueNode;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;

/**
 * A scheduled task, its promise and its heap entry in one object.
 *
 * <p>Life cycle, all of it on the executor thread except {@link #cancel}: a task scheduled from another
 * thread first travels through the executor's task queue; its first {@link #run()} there only moves it into
 * the scheduled-task heap ("accepted"). When it is due, the executor polls it from the heap and runs it
 * again, which now performs the work. A cancel from another thread sends the task through the task queue
 * once more so that its removal from the heap happens on the executor, in O(log n).
 */
final class ScheduledFutureTask<V> extends PromiseTask<V> implements ScheduledFuture<V>, PriorityQueueNode {
    /** Heap order: earlier deadline first, then earlier entry into the heap. */
    static final Comparator<ScheduledFutureTask<?>> DEADLINE_ORDER = (a, b) -> {
        if (a.deadlineNanos != b.deadlineNanos) {
            return a.deadlineNanos < b.deadlineNanos ? -1 : 1;
        }
        return Long.compare(a.id, b.id);
    };

    // 0: one-shot; > 0: fixed rate; < 0: fixed delay of -periodNanos.
    private final long periodNanos;
    // Executor-relative deadline; written only by the executor thread once the task is accepted.
    private long deadlineNanos;
    // The fields below are read and written only on the executor thread.
    private long id;
    private int queueIndex = INDEX_NOT_IN_QUEUE;

    ScheduledFutureTask(AbstractScheduledEventExecutor executor, Runnable task, long deadlineNanos, long periodNanos) {
        super(executor, task, null);
        this.deadlineNanos = deadlineNanos;
        this.periodNanos = periodNanos;
    }

    ScheduledFutureTask(AbstractScheduledEventExecutor executor, Callable<V> task, long deadlineNanos) {
        super(executor, task);
        this.deadlineNanos = deadlineNanos;
        this.periodNanos = 0;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    boolean isPeriodic() {
        return periodNanos != 0;
    }

    /** Whether the executor took the task into its heap; ids start at 1, so 0 means "not yet". */
    boolean isAccepted() {
        return id != 0;
    }

    /**
     * Called by the executor when the task first enters the heap.
     *
     * @param id the task's sequence number, at least 1: ties between equal deadlines go to the lower id
     */
    void accept(long id) {
        this.id = id;
    }

    private AbstractScheduledEventExecutor scheduler() {
        // The constructors only take an AbstractScheduledEventExecutor, so the cast cannot fail; it spares a field.
        return (AbstractScheduledEventExecutor) executor();
    }

    @Override
    public int priorityQueueIndex() {
        return queueIndex;
    }

    @Override
    public void priorityQueueIndex(int index) {
        queueIndex = index;
    }

    @Override
    public void run() {
        if (isCancelled()) {
            // Either cancelled before it was accepted, or this is the removal trip of a cross-thread cancel.
            scheduler().removeFromHeap(this);
            return;
        }
        if (!isAccepted()) {
            scheduler().addToHeap(this);
            return;
        }
        if (periodNanos == 0) {
            if (!isDone() && setUncancellableInternal()) {
                try {
                    trySuccessInternal(call());
                } catch (Throwable t) {
                    tryFailureInternal(t);
                }
            }
            return;
        }
        if (isDone()) {
            return;
        }
        try {
            call();
        } catch (Throwable t) {
            tryFailureInternal(t);
            return;
        }
        if (scheduler().isShutdown() || isCancelled()) {
            return;
        }
        long next = periodNanos > 0
                ? AbstractScheduledEventExecutor.deadlineNanos(deadlineNanos, periodNanos)
                : AbstractScheduledEventExecutor.deadlineNanos(scheduler().currentTimeNanos(), -periodNanos);
        deadlineNanos = next;
        scheduler().addToHeap(this);
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            scheduler().removeScheduled(this);
        }
        return cancelled;
    }

    @Override
    public long getDelay(TimeUnit unit) {
        return unit.convert(Math.max(0, deadlineNanos - scheduler().currentTimeNanos()), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed o) {
        if (o == this) {
            return 0;
        }
        if (o instanceof ScheduledFutureTask) {
            return DEADLINE_ORDER.compare(this, (ScheduledFutureTask<?>) o);
        }
        return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public String toString() {
        return super.toString() + "(deadline: " + deadlineNanos + ", period: " + periodNanos + ')';
    }
}
