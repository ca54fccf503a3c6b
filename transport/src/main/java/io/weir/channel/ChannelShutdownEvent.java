package io.weir.channel;

/**
 * What {@link ChannelHandler#channelShutdown} reports: one of {@link ChannelInputShutdownEvent},
 * {@link ChannelInputShutdownReadComplete} and {@link ChannelOutputShutdownEvent}, each a singleton.
 */
public abstract sealed class ChannelShutdownEvent
        permits ChannelInputShutdownEvent, ChannelInputShutdownReadComplete, ChannelOutputShutdownEvent {

    ChannelShutdownEvent() {
    }

    /** The half of the channel that was shut down. */
    public abstract ChannelShutdownDirection direction();
}
