package io.weir.util.concurrent;

import java.util.concurrent.Callable;
import java.util.concurrent.RunnableFuture;

/** A submitted task and its promise in one object, so a submission allocates once. */
class PromiseTask<V> extends DefaultPromise<V> implements RunnableFuture<V> {
    // A Runnable (completing with "result") or a Callable; kept untyped to avoid an adapter object.
    private final Object task;
    private final V result;

    PromiseTask(EventExecutor executor, Runnable task, V result) {
        super(executor);
        this.task = task;
        this.result = result;
    }

    PromiseTask(EventExecutor executor, Callable<V> task) {
        super(executor);
        this.task = task;
        this.result = null;
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
            return result;
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
