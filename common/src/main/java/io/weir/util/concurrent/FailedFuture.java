package io.weir.util.concurrent;

import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** A future that failed at creation. */
final class FailedFuture<V> extends CompleteFuture<V> {
    private final Throwable cause;

    FailedFuture(EventExecutor executor, Throwable cause) {
        super(executor);
        this.cause = Objects.requireNonNull(cause, "cause");
    }

    @Override
    public boolean isSuccess() {
        return false;
    }

    @Override
    public Throwable cause() {
        return cause;
    }

    @Override
    public V getNow() {
        return null;
    }

    @Override
    public V get() throws ExecutionException {
        throw new ExecutionException(cause);
    }

    @Override
    public V get(long timeout, TimeUnit unit) throws ExecutionException {
        throw new ExecutionException(cause);
    }

    @Override
    public Future<V> sync() {
        throwUnchecked(cause);
        return this;
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void throwUnchecked(Throwable t) throws T {
        throw (T) t;
    }

    @Override
    public String toString() {
        return "FailedFuture(" + cause + ')';
    }
}
