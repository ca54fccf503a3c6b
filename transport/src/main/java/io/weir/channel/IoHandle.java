package io.weir.channel;

/**
 * Something an {@link IoHandler} watches for readiness: a channel's socket, a pipe, a timer descriptor.
 * Each I/O handler accepts its own kind of handle (see {@link IoHandler#isCompatible}).
 *
 * <p>Both methods are called on the event loop that owns the registration.
 */
public interface IoHandle extends AutoCloseable {

    /**
     * Called when readiness this handle {@linkplain IoRegistration#submit asked for} has happened.
     *
     * @param registration the registration through which the handle is known to its I/O handler
     * @param event what happened; its concrete type belongs to the I/O handler
     */
    void handle(IoRegistration registration, IoEvent event);

    /**
     * Closes the underlying resource. The I/O handler calls this for every handle still registered when it is
     * destroyed.
     */
    @Override
    void close() throws Exception;
}
