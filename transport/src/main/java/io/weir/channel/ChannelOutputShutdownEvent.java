package io.weir.channel;

/** The channel's output was shut down; writes still queued were failed with {@link ChannelOutputShutdownException}. */
public final class ChannelOutputShutdownEvent extends ChannelShutdownEvent {
    /** The one instance. */
    public static final ChannelOutputShutdownEvent INSTANCE = new ChannelOutputShutdownEvent();

    private ChannelOutputShutdownEvent() {
    }

    @Override
    public ChannelShutdownDirection direction() {
        return ChannelShutdownDirection.OUTBOUND;
    }

    @Override
    public String toString() {
        return "ChannelOutputShutdownEvent";
    }
}
