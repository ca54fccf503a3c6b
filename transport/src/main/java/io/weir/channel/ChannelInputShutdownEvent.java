package io.weir.channel;

/**
 * The channel's input was shut down: the peer ended its stream while
 * {@linkplain ChannelOption#ALLOW_HALF_CLOSURE half-closure} is allowed, or the application called
 * {@link DuplexChannel#shutdownInput()}. Decoders flush what they hold here.
 */
public final class ChannelInputShutdownEvent extends ChannelShutdownEvent {
    /** The one instance. */
    public static final ChannelInputShutdownEvent INSTANCE = new ChannelInputShutdownEvent();

    private ChannelInputShutdownEvent() {
    }

    @Override
    public ChannelShutdownDirection direction() {
        return ChannelShutdownDirection.INBOUND;
    }

    @Override
    public String toString() {
        return "ChannelInputShutdownEvent";
    }
}
