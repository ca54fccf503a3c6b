package io.weir.util.concurrent;

/**
 * Told once when a {@link Future} completes. Listeners run on the future's executor (see
 * {@link DefaultPromise}), in the order they were added.
 *
 * @param <V> the result type of the futures this listener accepts
 */
@FunctionalInterface
public interface FutureListener<V> {

    /**
     * Called when {@code future} is done (succeeded, failed or cancelled). An exception thrown here is logged
     * and does not stop the other listeners.
     */
    void operationComplete(Future<? extends V> future) throws Exception;
}
