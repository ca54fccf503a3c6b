package io.weir.util.concurrent;

import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;

/**
 * The result of an asynchronous operation, with listeners and waits that surface the failure cause.
 *
 * <p>A future completes once: it succeeds with a value, fails with a cause, or is cancelled (which is a
 * failure whose cause is a {@link CancellationException}). Listeners added before or after completion are
 * each notified exactly once. Every method is thread-safe.
 *
 * <p>Waiting methods ({@link #sync()}, {@link #await()}, {@link #get()} and their variants) throw
 * {@link BlockingOperationException} when called on the thread of the executor that would have to complete
 * the future, because that wait could never end.
 *
 * @param <V> the result type
 */
public interface Future<V> extends java.util.concurrent.Future<V> {

    /** Whether the future completed successfully. */
    boolean isSuccess();

    /** Whether {@link #cancel(boolean)} could still succeed (the future is neither done nor uncancellable). */
    boolean isCancellable();

    /** The failure cause, or {@code null} if the future succeeded or is not done yet. */
    Throwable cause();

    /**
     * Adds a listener that is notified when this future is done, or soon after this call if it already is.
     *
     * @throws NullPointerException if {@code listener} is null
     */
    Future<V> addListener(FutureListener<? super V> listener);

    /** Adds two listeners, in this order. */
    Future<V> addListeners(FutureListener<? super V> first, FutureListener<? super V> second);

    /** Removes the first registration of {@code listener}, if it has not been notified yet. */
    Future<V> removeListener(FutureListener<? super V> listener);

    /** Removes the first registration of each of two listeners. */
    Future<V> removeListeners(FutureListener<? super V> first, FutureListener<? super V> second);

    /**
     * Waits for this future and rethrows its cause if it failed (as is, even a checked exception).
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     * @throws BlockingOperationException if called from this future's executor thread before completion
     */
    Future<V> sync() throws InterruptedException;

    /** {@link #sync()} that ignores interrupts (re-asserting the interrupt flag on return). */
    Future<V> syncUninterruptibly();

    /**
     * Waits for this future to complete, without throwing its cause.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     * @throws BlockingOperationException if called from this future's executor thread before completion
     */
    Future<V> await() throws InterruptedException;

    /** {@link #await()} that ignores interrupts (re-asserting the interrupt flag on return). */
    Future<V> awaitUninterruptibly();

    /**
     * Waits at most {@code timeout} for completion; returns whether the future is done.
     *
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    boolean await(long timeout, TimeUnit unit) throws InterruptedException;

    /** {@link #await(long, TimeUnit)} in milliseconds. */
    boolean await(long timeoutMillis) throws InterruptedException;

    /** {@link #await(long, TimeUnit)} that ignores interrupts (re-asserting the interrupt flag on return). */
    boolean awaitUninterruptibly(long timeout, TimeUnit unit);

    /** {@link #awaitUninterruptibly(long, TimeUnit)} in milliseconds. */
    boolean awaitUninterruptibly(long timeoutMillis);

    /**
     * The value without blocking: {@code null} if not done, failed, or succeeded with {@code null}; use
     * {@link #isSuccess()} to tell these apart.
     */
    V getNow();

    /**
     * Cancels this future if it is still cancellable; it then fails with a {@link CancellationException} and
     * its listeners are notified. {@code mayInterruptIfRunning} is ignored: Weir never interrupts an executor.
     *
     * @return whether this call cancelled the future
     */
    @Override
    boolean cancel(boolean mayInterruptIfRunning);
}
