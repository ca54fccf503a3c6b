package io.weir.handler.ssl;

/**
 * Fired by {@link SniHandler} once it has read the ClientHello: the host name the client asked for (null
 * without server_name), or why the ClientHello was refused.
 */
public final class SniCompletionEvent extends SslCompletionEvent {
    private final String hostName;

    /** The client asked for {@code hostName} (null: no server_name extension). */
    public SniCompletionEvent(String hostName) {
        super(null);
        this.hostName = hostName;
    }

    /** The ClientHello was refused because of {@code cause}. */
    public SniCompletionEvent(Throwable cause) {
        super(java.util.Objects.requireNonNull(cause, "cause"));
        this.hostName = null;
    }

    /** The host name from server_name, in lower case, or null. */
    public String hostName() {
        return hostName;
    }
}
