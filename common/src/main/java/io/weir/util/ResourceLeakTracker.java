package io.weir.util;

/**
 * Watches one object handed to {@link ResourceLeakDetector#track}: if the object becomes unreachable before
 * {@link #close} is called, its detector reports a leak, with the access records kept here.
 *
 * <p>All methods are thread-safe and lock-free; {@link #record()} does nothing unless the tracker was
 * created at {@link ResourceLeakDetector.Level#ADVANCED} or above.
 *
 * @param <T> the type of the tracked object
 */
public interface ResourceLeakTracker<T> {
    /** Records the caller's stack as an access to the tracked object. */
    void record();

    /**
     * Records the caller's stack and {@code hint} as an access to the tracked object. The hint is turned
     * into a string now ({@link ResourceLeakHint#toHintString()} or {@code String.valueOf}), so the tracker
     * never keeps it reachable.
     */
    void record(Object hint);

    /**
     * Stops tracking: call it when the tracked object has been released. Also keeps {@code trackedObject}
     * reachable until the call returns, so it cannot be reported as leaked while it is being closed.
     *
     * @param trackedObject the object this tracker was created for
     * @return {@code true} if the tracker was open; {@code false} if it had been closed already
     * @throws NullPointerException if {@code trackedObject} is {@code null}
     * @throws IllegalArgumentException if {@code trackedObject} is not the object this tracker watches
     */
    boolean close(T trackedObject);
}
