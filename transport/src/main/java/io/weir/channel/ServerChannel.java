package io.weir.channel;

/**
 * A channel that accepts connections and creates a child {@link Channel} for each, passing it to the
 * pipeline's {@link ChannelHandler#channelRead}. Thread-safe.
 */
public interface ServerChannel extends Channel {

    /** The group whose loops the accepted channels are created on. */
    EventLoopGroup childEventLoopGroup();
}
