package io.weir.channel.unix;

/**
 * The peer is gone: {@code ECONNRESET} (it reset the connection) or {@code EPIPE} (writing after the connection
 * was shut down). Reading or writing that connection will not succeed again; a channel closes on it quietly.
 *
 * <p>The instances thrown by {@link FileDescriptor}'s reads and writes are shared and have no stack trace:
 * a peer can cause them at will, so they must cost nothing.
 */
public final class ConnectionResetException extends NativeIoException {
    private static final long serialVersionUID = 1L;

    /**
     * @param operation the failed call
     * @param errno {@code ECONNRESET} or {@code EPIPE}
     */
    public ConnectionResetException(String operation, int errno) {
        super(operation, errno);
    }
}
