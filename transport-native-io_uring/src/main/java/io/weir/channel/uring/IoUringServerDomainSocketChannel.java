package io.weir.channel.uring;

import io.weir.channel.Channel;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.unix.DomainSocketAddress;
import io.weir.channel.unix.Socket;

/**
 * A listening Unix domain stream socket on io_uring: binds a {@link DomainSocketAddress} (the file must not exist
 * yet) and fires each accepted connection as an {@link IoUringDomainSocketChannel} on a loop of
 * {@link #childEventLoopGroup()}, with the multishot accept and the accept back-off of
 * {@link IoUringServerSocketChannel}. Closing the channel deletes the socket file it created. Its loop must run an
 * {@link IoUringIoHandler}.
 *
 * <p>Options (besides those of every channel): {@link ChannelOption#SO_BACKLOG} (default
 * {@value IoUringServerSocketChannel#DEFAULT_BACKLOG}), {@link ChannelOption#SO_RCVBUF},
 * {@link ChannelOption#SO_SNDBUF}. Thread-safe as every channel.
 */
public final class IoUringServerDomainSocketChannel extends AbstractIoUringServerChannel {

    /**
     * A new, unbound domain server socket on {@code eventLoop} whose accepted channels go to loops of
     * {@code childGroup}.
     *
     * @throws NullPointerException if {@code eventLoop} or {@code childGroup} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run an {@link IoUringIoHandler}
     * @throws ChannelException if the socket cannot be opened
     * @throws UnsatisfiedLinkError if {@link IoUring#isAvailable()} is false
     */
    public IoUringServerDomainSocketChannel(EventLoop eventLoop, EventLoopGroup childGroup) {
        super(eventLoop, childGroup, IoUringDomainSocketChannel.openDomainSocket(), ChannelOption.SO_RCVBUF,
                ChannelOption.SO_SNDBUF);
    }

    @Override
    public DomainSocketAddress localAddress() {
        return (DomainSocketAddress) super.localAddress();
    }

    @Override
    Channel newChildChannel(EventLoop eventLoop, Socket accepted) {
        return new IoUringDomainSocketChannel(this, eventLoop, accepted);
    }
}
