package io.weir.util.concurrent;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/** A future that is done from birth: waits return at once and listeners are notified on the executor. */
abstract class CompleteFuture<V> implements Future<V> {
    private final EventExecutor executor;

    CompleteFuture(EventExecutor executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
    }

    @Override
    public Future<V> addListener(FutureListener<? super V> listener) {
        DefaultPromise.notifyListener(executor, this, Objects.requireNonNull(listener, "listener"));
        return this;
    }

    @Override
    public Future<V> addListeners(FutureListener<? super V> first, FutureListener<? super V> second) {
        Objects.requireNonNull(second, "second");
        addListener(first);
        return addListener(second);
    }

    @Override
    public Future<V> removeListener(FutureListener<? super V> listener) {
        // Listeners of a complete future are notified as they are added; nothing is left to remove.
        return this;
    }

    @Override
    public Future<V> removeListeners(FutureListener<? super V> first, FutureListener<? super V> second) {
        return this;
    }

    @Override
    public Future<V> await() {
        return this;
    }

    @Override
    public Future<V> awaitUninterruptibly() {
        return this;
    }

    @Override
    public boolean await(long timeout, TimeUnit unit) {
        return true;
    }

    @Override
    public boolean await(long timeoutMillis) {
        return true;
    }

    @Override
    public boolean awaitUninterruptibly(long timeout, TimeUnit unit) {
        return true;
    }

    @Override
    public boolean awaitUninterruptibly(long timeoutMillis) {
        return true;
    }

    @Override
    public Future<V> syncUninterruptibly() {
        return sync();
    }

    @Override
    public abstract Future<V> sync();

    @Override
    public boolean isDone() {
        return true;
    }

    @Override
    public boolean isCancellable() {
        return false;
    }

    @Override
    public boolean isCancelled() {
        return false;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return false;
    }
}
