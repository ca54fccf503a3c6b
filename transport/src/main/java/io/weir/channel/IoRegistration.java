package io.weir.channel;

/**
 * The link between an {@link IoHandle} and the {@link IoHandler} watching it. Created by
 * {@link EventLoop#register}; valid until {@link #cancel()} or until the I/O handler is destroyed.
 *
 * <p>Unless stated otherwise methods must be called on the owning event loop.
 */
public interface IoRegistration {

    /**
     * Replaces the set of readiness events the handle wants to hear about.
     *
     * @param ops an operation set of the I/O handler's own kind (for NIO, interest ops)
     * @return a handler-specific result; NIO returns the previous interest ops
     * @throws IllegalArgumentException if {@code ops} is not of this I/O handler's kind
     * @throws IllegalStateException if the registration is no longer valid
     */
    long submit(IoOps ops);

    /** Whether the handle is still registered. May be called from any thread. */
    boolean isValid();

    /**
     * Removes the handle from its I/O handler. The handle is not closed.
     *
     * @return {@code true} if this call cancelled it, {@code false} if it was already cancelled
     */
    boolean cancel();

    /**
     * A handler-specific object behind the registration (for NIO, the {@code SelectionKey}), for transports
     * that know which handler they run on.
     */
    <T> T attachment();
}
