package io.weir.util.concurrent;

import java.util.concurrent.TimeUnit;

/** A future that succeeded at creation. */
final class SucceededFuture<V> extends CompleteFuture<V> {
    private final V result;

    SucceededFuture(EventExecutor executor, V result) {
        super(executor);
        this.result = result;
    }

    @Override
    public boolean isSuccess() {
        return true;
    }

    @Override
    public Throwable cause() {
        return null;
    }

    @Override
    public V getNow() {
        return result;
    }

    @Override
    public V get() {
        return result;
    }

    @Override
    public V get(long timeout, TimeUnit unit) {
        return result;
    }

    @Override
    public Future<V> sync() {
        return this;
    }

    @Override
    public String toString() {
        return "SucceededFuture(" + result + ')';
    }
}
