package io.weir.channel;

/**
 * The I/O half of an event loop: waits for readiness and dispatches it to registered {@link IoHandle}s.
 * NIO, epoll and kqueue are different implementations given to the same event loop through an
 * {@link IoHandlerFactory}.
 *
 * <p>Every method except {@link #wakeup()} is called only on the event loop's thread.
 */
public interface IoHandler {

    /** Called once on the loop's thread before the first {@link #run}. */
    default void initialize() {
    }

    /**
     * Waits for readiness (no longer than the context allows) and dispatches what is ready.
     *
     * @return how many handles were dispatched to
     */
    int run(IoHandlerContext context);

    /** Called when the loop starts shutting down, before {@link #destroy()}: a chance to close handles. */
    default void prepareToDestroy() {
    }

    /** Releases the handler's resources; closes handles still registered. Called once, last. */
    void destroy();

    /**
     * Starts watching {@code handle}.
     *
     * @throws IllegalArgumentException if the handle is not {@linkplain #isCompatible compatible}
     * @throws Exception if the underlying mechanism refuses the registration
     */
    IoRegistration register(IoHandle handle) throws Exception;

    /**
     * Interrupts a blocking wait in {@link #run}. Called from threads other than the loop's, when a task
     * arrives; must be cheap and safe to call often.
     */
    void wakeup();

    /** Whether this handler can drive handles of {@code handleType}. */
    boolean isCompatible(Class<? extends IoHandle> handleType);

    /**
     * How many handles are registered with this handler right now: a handle counts from a successful
     * {@link #register} until its {@link IoRegistration#cancel()} (or until the handler closes it). The event
     * loop reports this as its registered-channels metric. Written on the loop, so a read from another thread
     * is best effort.
     *
     * @return the count, or {@code -1} if this handler does not keep one (the default)
     */
    default int registrationCount() {
        return -1;
    }
}
