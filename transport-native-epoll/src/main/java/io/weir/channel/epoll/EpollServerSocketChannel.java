package io.weir.channel.epoll;

import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.AbstractUnixServerChannel;
import java.net.InetSocketAddress;

/**
 * A listening TCP socket over the Linux epoll transport: the drop-in counterpart of
 * {@code NioServerSocketChannel}. On read readiness it accepts connections with {@code accept4(2)} (non-blocking,
 * close-on-exec) until none is pending or {@link ChannelOption#MAX_MESSAGES_PER_READ} were accepted, and fires each
 * as an {@link EpollSocketChannel} through {@code channelRead}; each is created on
 * {@link #childEventLoopGroup()}{@code .next()}, which must be an epoll group, and stays on that loop. A server
 * bootstrap installs the handler that registers them; an accepted channel that reaches the end of the pipeline
 * is closed.
 *
 * <p>Options (besides those of every channel): {@link ChannelOption#SO_BACKLOG} (read when binding; default
 * {@value #DEFAULT_BACKLOG}, capped by the kernel's {@code net.core.somaxconn}), {@link ChannelOption#SO_REUSEADDR}
 * (on by default, so a restarted server can bind at once), {@link ChannelOption#SO_RCVBUF} (inherited by accepted
 * sockets), and {@link EpollChannelOption#SO_REUSEPORT}: with it on, server channels on several loops may bind the
 * same port and the kernel spreads the connections across them; {@link EpollChannelOption#TCP_FASTOPEN} (queue
 * length for connections whose SYN carried data), {@link EpollChannelOption#TCP_DEFER_ACCEPT},
 * {@link EpollChannelOption#IP_TRANSPARENT} and {@link EpollChannelOption#IP_FREEBIND}. Set the socket options
 * before binding.
 * Writing to a server channel fails with {@link UnsupportedOperationException}. Thread-safe as every channel.
 */
public final class EpollServerSocketChannel extends AbstractUnixServerChannel {
    /** Default {@link ChannelOption#SO_BACKLOG}: pending connections the kernel queues before accept. */
    public static final int DEFAULT_BACKLOG = AbstractUnixServerChannel.DEFAULT_BACKLOG;
    /** Default {@link ChannelOption#MAX_MESSAGES_PER_READ}: connections accepted per readiness event. */
    public static final int DEFAULT_MAX_ACCEPTS_PER_READ = AbstractUnixServerChannel.DEFAULT_MAX_ACCEPTS_PER_READ;

    private final EpollChannelConfig config;

    /**
     * A new, unbound server socket (IPv6 dual-stack where the kernel supports it) on {@code eventLoop} whose
     * accepted channels go to loops of {@code childGroup}.
     *
     * @throws NullPointerException if {@code eventLoop} or {@code childGroup} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run an {@link EpollIoHandler}
     * @throws ChannelException if the socket cannot be opened or set up
     * @throws UnsatisfiedLinkError if {@link Epoll#isAvailable()} is false
     */
    public EpollServerSocketChannel(EventLoop eventLoop, EventLoopGroup childGroup) {
        this(eventLoop, childGroup, EpollChannelHandle.TRANSPORT.openStreamSocket());
    }

    private EpollServerSocketChannel(EventLoop eventLoop, EventLoopGroup childGroup, Socket socket) {
        super(eventLoop, childGroup, socket, EpollChannelHandle.TRANSPORT);
        this.config = new EpollChannelConfig(this, DEFAULT_MAX_ACCEPTS_PER_READ, DEFAULT_BACKLOG,
                ChannelOption.SO_REUSEADDR, ChannelOption.SO_RCVBUF, EpollChannelOption.SO_REUSEPORT,
                EpollChannelOption.TCP_FASTOPEN, EpollChannelOption.TCP_DEFER_ACCEPT, EpollChannelOption.IP_TRANSPARENT,
                EpollChannelOption.IP_FREEBIND);
        try {
            socket.setReuseAddress(true);
        } catch (Exception e) {
            closeAfterFailure(socket, e);
            throw new ChannelException("failed to set SO_REUSEADDR on " + socket, e);
        }
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
    }

    @Override
    protected Channel newChildChannel(EventLoop loop, Socket accepted) {
        return new EpollSocketChannel(this, loop, accepted);
    }
}
