package io.weir.util.concurrent;

/**
 * A {@link Future} whose holder completes it. Completing twice with the {@code set} methods is a bug and
 * throws; the {@code try} methods report whether they won. Thread-safe.
 *
 * @param <V> the result type
 */
public interface Promise<V> extends Future<V> {

    /**
     * Completes this promise successfully and notifies listeners.
     *
     * @throws IllegalStateException if it was already completed
     */
    Promise<V> setSuccess(V result);

    /** Completes this promise successfully if it is not done yet; returns whether this call completed it. */
    boolean trySuccess(V result);

    /**
     * Fails this promise and notifies listeners.
     *
     * @throws IllegalStateException if it was already completed
     * @throws NullPointerException if {@code cause} is null
     */
    Promise<V> setFailure(Throwable cause);

    /** Fails this promise if it is not done yet; returns whether this call completed it. */
    boolean tryFailure(Throwable cause);

    /**
     * Makes this promise impossible to cancel. Returns {@code true} if it is now uncancellable or already
     * completed without being cancelled, {@code false} if it was cancelled.
     */
    boolean setUncancellable();

    @Override
    Promise<V> addListener(FutureListener<? super V> listener);

    @Override
    Promise<V> addListeners(FutureListener<? super V> first, FutureListener<? super V> second);

    @Override
    Promise<V> removeListener(FutureListener<? super V> listener);

    @Override
    Promise<V> removeListeners(FutureListener<? super V> first, FutureListener<? super V> second);

    @Override
    Promise<V> sync() throws InterruptedException;

    @Override
    Promise<V> syncUninterruptibly();

    @Override
    Promise<V> await() throws InterruptedException;

    @Override
    Promise<V> awaitUninterruptibly();
}
