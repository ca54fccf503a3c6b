package io.weir.bootstrap;

import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.ServerChannel;

/**
 * Creates the server channels a {@link ServerBootstrap} binds: each gets its own event loop and the group its
 * accepted channels will be created on.
 *
 * @param <C> the type of server channel
 */
@FunctionalInterface
public interface ServerChannelFactory<C extends ServerChannel> {

    /**
     * A new, unregistered server channel on {@code eventLoop} whose children go to loops of {@code childGroup}.
     * Called on the thread that asked the bootstrap to bind.
     *
     * @throws io.weir.channel.ChannelException (or any runtime exception) if the channel cannot be created
     */
    C newChannel(EventLoop eventLoop, EventLoopGroup childGroup);
}
