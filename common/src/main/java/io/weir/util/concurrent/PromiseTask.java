package io.weir.util.concurrent;

import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.RunnableFuture;

/** A submitted task and its promise in one object, so a submission allocates once. */
class PromiseTask<V> extends DefaultPromise<V> implements RunnableFuture<V> {
    // A Runnable that completes with null, or a Callable that is not a Runnable; untyped so that the common
    // cases (execute, schedule, submit) need no adapter object and no result field.
    private final Object task;

    PromiseTask(EventExecutor executor, Runnable task, V result) {
        super(executor);
        // Only a preset result needs an adapter. A Runnable that is also a Callable is stored as it is:
        // call() tests for Runnable first, so it is run, as submitted.
        this.task = result == null ? task : Executors.callable(task, result);
    }

    PromiseTask(EventExecutor executor, Callable<V> task) {
        super(executor);
        // A Callable that is also a Runnable must be called, not run: hide its Runnable side.
        this.task = task instanceof Runnable ? new CallableOnly<>(task) : task;
    }

    /** Presents a Callable that also implements Runnable as a Callable only. */
    private static final class CallableOnly<V> implements Callable<V> {
        private final Callable<V> callable;

        CallableOnly(Callable<V> callable) {
            this.callable = callable;
        }

        @Override
        public V call() throws Exception {
            return callable.call();
        }

        @Override
        public String toString() {
            return callable.toString();
        }
    }

    @Override
    public void run() {
        // A task cancelled while queued must not run.
        if (!setUncancellableInternal()) {
            return;
        }
        try {
            trySuccessInternal(call());
        } catch (Throwable t) {
            tryFailureInternal(t);
        }
    }

    // Only the task itself completes its future: a caller that casts the returned Future to a Promise must not
    // be able to fake a result or pin the task as uncancellable.

    @Override
    public final Promise<V> setSuccess(V result) {
        throw new IllegalStateException("a submitted task completes its own future: " + this);
    }

    @Override
    public final boolean trySuccess(V result) {
        return false;
    }

    @Override
    public final Promise<V> setFailure(Throwable cause) {
        throw new IllegalStateException("a submitted task completes its own future: " + this, cause);
    }

    @Override
    public final boolean tryFailure(Throwable cause) {
        return false;
    }

    @Override
    public final boolean setUncancellable() {
        throw new IllegalStateException("a submitted task decides its own cancellability: " + this);
    }

    /** Runs the wrapped work once and returns its result, throwing what it throws. */
    @SuppressWarnings("unchecked")
    final V call() throws Exception {
        if (task instanceof Runnable) {
            ((Runnable) task).run();
            return null;
        }
        return ((Callable<V>) task).call();
    }

    final Object task() {
        return task;
    }

    @Override
    public String toString() {
        return super.toString() + "(task: " + task + ')';
    }
}
