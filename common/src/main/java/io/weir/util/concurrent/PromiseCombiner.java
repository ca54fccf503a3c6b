package io.weir.util.concurrent;

import java.util.Objects;

/**
 * Completes one aggregate promise when every added future is done: successfully if all succeeded, otherwise
 * with the cause of the first failure observed. Confined to one executor: call {@link #add},
 * {@link #addAll} and {@link #finish} on its thread; completions of the added futures are brought there.
 */
public final class PromiseCombiner {
    private final EventExecutor executor;
    private final FutureListener<Object> listener = this::onFutureDone;
    private int expectedCount;
    private int doneCount;
    private Promise<Void> aggregatePromise;
    private Throwable cause;

    /**
     * A combiner confined to {@code executor}.
     *
     * @throws NullPointerException if {@code executor} is null
     */
    public PromiseCombiner(EventExecutor executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    /**
     * Adds a future to wait for.
     *
     * @throws IllegalStateException if called off the executor thread or after {@link #finish}
     */
    public void add(Future<?> future) {
        Objects.requireNonNull(future, "future");
        checkAddAllowed();
        expectedCount++;
        future.addListener(listener);
    }

    /**
     * Adds futures to wait for.
     *
     * @throws IllegalStateException if called off the executor thread or after {@link #finish}
     */
    public void addAll(Future<?>... futures) {
        for (Future<?> future : futures) {
            add(future);
        }
    }

    /**
     * Sets the promise to complete once all added futures are done (at once if they already are). No futures
     * may be added afterwards.
     *
     * @throws IllegalStateException if called twice or off the executor thread
     */
    public void finish(Promise<Void> aggregatePromise) {
        Objects.requireNonNull(aggregatePromise, "aggregatePromise");
        checkInExecutor();
        if (this.aggregatePromise != null) {
            throw new IllegalStateException("finish() called already");
        }
        this.aggregatePromise = aggregatePromise;
        if (doneCount == expectedCount) {
            complete();
        }
    }

    private void onFutureDone(Future<?> future) {
        if (executor.inEventLoop()) {
            countDone(future);
        } else {
            executor.execute(() -> countDone(future));
        }
    }

    private void countDone(Future<?> future) {
        doneCount++;
        if (!future.isSuccess() && cause == null) {
            cause = future.cause();
        }
        if (doneCount == expectedCount && aggregatePromise != null) {
            complete();
        }
    }

    private void complete() {
        if (cause == null) {
            aggregatePromise.trySuccess(null);
        } else {
            aggregatePromise.tryFailure(cause);
        }
    }

    private void checkAddAllowed() {
        checkInExecutor();
        if (aggregatePromise != null) {
            throw new IllegalStateException("futures cannot be added after finish()");
        }
    }

    private void checkInExecutor() {
        if (!executor.inEventLoop()) {
            throw new IllegalStateException("PromiseCombiner must be used from its executor's thread");
        }
    }
}
