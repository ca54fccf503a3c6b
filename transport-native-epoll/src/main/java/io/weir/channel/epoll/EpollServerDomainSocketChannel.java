package io.weir.channel.epoll;

import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.unix.DomainSocketAddress;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.AbstractUnixServerChannel;

/**
 * A listening Unix domain stream socket over the Linux epoll transport: binds a {@link DomainSocketAddress}
 * (the file must not exist yet) and fires each accepted connection as an {@link EpollDomainSocketChannel} on a
 * loop of {@link #childEventLoopGroup()}, as {@link EpollServerSocketChannel} does for TCP. Closing the channel
 * deletes the socket file it created.
 *
 * <p>Options (besides those of every channel): {@link ChannelOption#SO_BACKLOG} (default
 * {@value EpollServerSocketChannel#DEFAULT_BACKLOG}), {@link ChannelOption#SO_RCVBUF}, {@link ChannelOption#SO_SNDBUF}.
 * Thread-safe as every channel.
 */
public final class EpollServerDomainSocketChannel extends AbstractUnixServerChannel {
    private final EpollChannelConfig config;

    /**
     * A new, unbound domain server socket on {@code eventLoop} whose accepted channels go to loops of
     * {@code childGroup}.
     *
     * @throws NullPointerException if {@code eventLoop} or {@code childGroup} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run an {@link EpollIoHandler}
     * @throws ChannelException if the socket cannot be opened
     * @throws UnsatisfiedLinkError if {@link Epoll#isAvailable()} is false
     */
    public EpollServerDomainSocketChannel(EventLoop eventLoop, EventLoopGroup childGroup) {
        this(eventLoop, childGroup, EpollChannelHandle.TRANSPORT.openDomainSocket());
    }

    private EpollServerDomainSocketChannel(EventLoop eventLoop, EventLoopGroup childGroup, Socket socket) {
        super(eventLoop, childGroup, socket, EpollChannelHandle.TRANSPORT);
        this.config = new EpollChannelConfig(this, DEFAULT_MAX_ACCEPTS_PER_READ, DEFAULT_BACKLOG,
                ChannelOption.SO_RCVBUF, ChannelOption.SO_SNDBUF);
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public DomainSocketAddress localAddress() {
        return (DomainSocketAddress) super.localAddress();
    }

    @Override
    protected Channel newChildChannel(EventLoop loop, Socket accepted) {
        return new EpollDomainSocketChannel(this, loop, accepted);
    }
}
