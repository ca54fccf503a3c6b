package io.weir.channel;

/**
 * The server is draining: fired through each of its connections' pipelines (see
 * {@code io.weir.channel.group.ServerDrain}) to ask every protocol on the connection to finish the work in flight,
 * take no new work, tell the peer it is going away in the protocol's own terms, and close the connection once done.
 * HTTP/1.1's keep-alive handler closes an idle connection at once and one owing a response after it (with
 * {@code Connection: close}); HTTP/2 sends GOAWAY and lets the open streams finish; a WebSocket sends close 1001.
 * Handlers that do not know the event pass it on; the channel itself does nothing with it, so a connection no
 * handler closes stays open until the drain's deadline.
 */
public final class ChannelDrainEvent {
    /** The one instance. */
    public static final ChannelDrainEvent INSTANCE = new ChannelDrainEvent();

    private ChannelDrainEvent() {
    }

    @Override
    public String toString() {
        return "ChannelDrainEvent";
    }
}
