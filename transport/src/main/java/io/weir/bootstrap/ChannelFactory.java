package io.weir.bootstrap;

import io.weir.channel.Channel;
import io.weir.channel.EventLoop;

/**
 * Creates the channels a {@link Bootstrap} connects or binds. A channel receives its event loop when it is
 * created, so the bootstrap picks the loop first and passes it in.
 *
 * @param <C> the type of channel
 */
@FunctionalInterface
public interface ChannelFactory<C extends Channel> {

    /**
     * A new, unregistered channel on {@code eventLoop}. Called on the thread that asked the bootstrap to bind or
     * connect.
     *
     * @throws io.weir.channel.ChannelException (or any runtime exception) if the channel cannot be created
     */
    C newChannel(EventLoop eventLoop);
}
