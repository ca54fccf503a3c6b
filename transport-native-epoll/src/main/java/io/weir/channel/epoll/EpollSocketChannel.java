package io.weir.channel.epoll;

import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelMetadata;
import io.weir.channel.ChannelOption;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.EventLoop;
import io.weir.channel.ServerChannel;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * A TCP connection over the Linux epoll transport, made by a bootstrap (or {@link #connect}) or accepted by an
 * {@link EpollServerSocketChannel}: the drop-in counterpart of {@code NioSocketChannel} on loops of
 * {@code new MultiThreadIoEventLoopGroup(n, EpollIoHandler.newFactory())}.
 *
 * <p>Options (besides those of every channel), read from and written to the socket itself:
 * {@link ChannelOption#SO_KEEPALIVE}, {@link ChannelOption#SO_SNDBUF}, {@link ChannelOption#SO_RCVBUF},
 * {@link ChannelOption#SO_REUSEADDR}, {@link ChannelOption#SO_LINGER}, {@link ChannelOption#TCP_NODELAY} (on by
 * default: Weir writes whole messages, and Nagle's algorithm would only delay them), {@link ChannelOption#IP_TOS},
 * {@link ChannelOption#ALLOW_HALF_CLOSURE}, and the Linux-only {@link EpollChannelOption#SO_REUSEPORT},
 * {@link EpollChannelOption#TCP_QUICKACK}, {@link EpollChannelOption#TCP_CORK},
 * {@link EpollChannelOption#TCP_NOTSENT_LOWAT}, {@link EpollChannelOption#TCP_USER_TIMEOUT},
 * {@link EpollChannelOption#TCP_KEEPIDLE}, {@link EpollChannelOption#TCP_KEEPINTVL},
 * {@link EpollChannelOption#TCP_KEEPCNT}. A failure to read or set one is a {@link ChannelException}.
 *
 * <p>Half-closure ({@link io.weir.channel.DuplexChannel}): {@link #shutdownOutput()} sends FIN after failing
 * queued writes; {@link #shutdownInput()} stops reading. With {@code ALLOW_HALF_CLOSURE} on, the peer's FIN shuts
 * the input down and fires {@link io.weir.channel.ChannelInputShutdownEvent} while the output stays writable.
 *
 * <p>Thread-safe as every channel. Closing with a positive {@code SO_LINGER} blocks the event loop until the
 * kernel has sent what it holds or the linger time ran out.
 */
public final class EpollSocketChannel extends AbstractEpollStreamChannel {
    private static final ChannelMetadata METADATA =
            new ChannelMetadata(false, DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ);

    private final EpollChannelConfig config;

    /**
     * A new, unconnected TCP socket (IPv6 dual-stack where the kernel supports it) on {@code eventLoop}.
     *
     * @throws NullPointerException if {@code eventLoop} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run an {@link EpollIoHandler}
     * @throws ChannelException if the socket cannot be opened
     * @throws UnsatisfiedLinkError if {@link Epoll#isAvailable()} is false
     */
    public EpollSocketChannel(EventLoop eventLoop) {
        this(null, eventLoop, newStreamSocket(), false);
    }

    /** An accepted connection, owned by this channel from now on (closed if the construction fails). */
    EpollSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket socket) {
        this(parent, eventLoop, socket, true);
    }

    private EpollSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket socket, boolean active) {
        super(parent, checkCompatible(eventLoop, socket), socket, active);
        this.config = new EpollChannelConfig(this, socket, DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ,
                ChannelOption.SO_KEEPALIVE, ChannelOption.SO_SNDBUF, ChannelOption.SO_RCVBUF,
                ChannelOption.SO_REUSEADDR, ChannelOption.SO_LINGER, ChannelOption.TCP_NODELAY, ChannelOption.IP_TOS,
                EpollChannelOption.SO_REUSEPORT, EpollChannelOption.TCP_QUICKACK, EpollChannelOption.TCP_CORK,
                EpollChannelOption.TCP_NOTSENT_LOWAT, EpollChannelOption.TCP_USER_TIMEOUT,
                EpollChannelOption.TCP_KEEPIDLE, EpollChannelOption.TCP_KEEPINTVL, EpollChannelOption.TCP_KEEPCNT);
        try {
            socket.setTcpNoDelay(true);
        } catch (IOException e) {
            AbstractEpollChannel.logDebug("Failed to turn TCP_NODELAY on for " + socket, e);
        }
    }

    @Override
    public ChannelConfig config() {
        return config;
    }

    @Override
    public ChannelMetadata metadata() {
        return METADATA;
    }

    @Override
    public ServerChannel parent() {
        return (ServerChannel) super.parent();
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) super.remoteAddress();
    }
}
