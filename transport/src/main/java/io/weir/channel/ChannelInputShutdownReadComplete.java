package io.weir.channel;

/**
 * Follows {@link ChannelInputShutdownEvent} once the read loop that saw the end of the input has finished:
 * no read event will follow.
 */
public final class ChannelInputShutdownReadComplete extends ChannelShutdownEvent {
    /** The one instance. */
    public static final ChannelInputShutdownReadComplete INSTANCE = new ChannelInputShutdownReadComplete();

    private ChannelInputShutdownReadComplete() {
    }

    @Override
    public ChannelShutdownDirection direction() {
        return ChannelShutdownDirection.INBOUND;
    }

    @Override
    public String toString() {
        return "ChannelInputShutdownReadComplete";
    }
}
