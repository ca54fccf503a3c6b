package io.weir.util.concurrent;

/**
 * An executor that can tell whether the calling thread is its own, and a factory for promises whose
 * listeners run on it. An executor is a group of one: {@link #next()} returns itself.
 */
public interface EventExecutor extends EventExecutorGroup {

    /** Returns {@code this}. */
    @Override
    EventExecutor next();

    /** The group this executor belongs to, or {@code null} if it stands alone. */
    EventExecutorGroup parent();

    /** Whether the calling thread is this executor's thread. */
    default boolean inEventLoop() {
        return inEventLoop(Thread.currentThread());
    }

    /** Whether {@code thread} is this executor's thread. */
    boolean inEventLoop(Thread thread);

    /** A new promise whose listeners are notified on this executor. */
    default <V> Promise<V> newPromise() {
        return new DefaultPromise<>(this);
    }

    /** A future that has already succeeded with {@code result}; its listeners run on this executor. */
    default <V> Future<V> newSucceededFuture(V result) {
        return new SucceededFuture<>(this, result);
    }

    /**
     * A future that has already failed with {@code cause}; its listeners run on this executor.
     *
     * @throws NullPointerException if {@code cause} is null
     */
    default <V> Future<V> newFailedFuture(Throwable cause) {
        return new FailedFuture<>(this, cause);
    }
}
