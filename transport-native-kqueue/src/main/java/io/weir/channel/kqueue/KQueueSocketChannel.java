package io.weir.channel.kqueue;

import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelOption;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.EventLoop;
import io.weir.channel.ServerChannel;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.AbstractUnixStreamChannel;
import io.weir.channel.unix.internal.UnixChannelConfig;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * A TCP connection driven by a {@link KQueueIoHandler}: what {@code NioSocketChannel} is for NIO, on macOS and
 * the BSDs (and on Linux through libkqueue). {@code TCP_NODELAY} is on by default. Half-closure through
 * {@link io.weir.channel.DuplexChannel}; {@link io.weir.channel.DefaultFileRegion}s go out with {@code sendfile}.
 *
 * <pre>{@code
 * EventLoopGroup group = new MultiThreadIoEventLoopGroup(0, KQueueIoHandler.newFactory());
 * new Bootstrap().group(group).channelFactory(KQueueSocketChannel::new).handler(...).connect(host, port);
 * }</pre>
 *
 * <p>Options: the standard socket options ({@code SO_KEEPALIVE}, {@code SO_SNDBUF}, {@code SO_RCVBUF},
 * {@code SO_REUSEADDR}, {@code SO_LINGER}, {@code TCP_NODELAY}, {@code IP_TOS}),
 * {@link KQueueChannelOption#SO_REUSEPORT}, {@link KQueueChannelOption#TCP_NOPUSH} and
 * {@link KQueueChannelOption#SO_SNDLOWAT}, each read from and written to the socket.
 *
 * <p>Thread-safe as every {@link io.weir.channel.Channel}.
 */
public final class KQueueSocketChannel extends AbstractUnixStreamChannel {
    private final KQueueChannelConfig config;

    /**
     * An unconnected channel on {@code eventLoop}.
     *
     * @throws UnsatisfiedLinkError if {@link KQueue#isAvailable()} is false
     * @throws IllegalArgumentException if {@code eventLoop} does not run a {@link KQueueIoHandler}
     * @throws io.weir.channel.ChannelException if no socket could be opened
     */
    public KQueueSocketChannel(EventLoop eventLoop) {
        this(null, eventLoop, KQueueChannelHandle.TRANSPORT.openStreamSocket(), false);
    }

    /** An accepted connection of {@code parent}. */
    KQueueSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket socket) {
        this(parent, eventLoop, socket, true);
    }

    private KQueueSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket socket, boolean active) {
        super(parent, eventLoop, socket, active, KQueueChannelHandle.TRANSPORT);
        config = new KQueueChannelConfig(this, DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ,
                UnixChannelConfig.NO_BACKLOG, ChannelOption.SO_KEEPALIVE, ChannelOption.SO_SNDBUF,
                ChannelOption.SO_RCVBUF, ChannelOption.SO_REUSEADDR, ChannelOption.SO_LINGER, ChannelOption.TCP_NODELAY,
                ChannelOption.IP_TOS, KQueueChannelOption.SO_REUSEPORT, KQueueChannelOption.TCP_NOPUSH,
                KQueueChannelOption.SO_SNDLOWAT);
        try {
            socket.setTcpNoDelay(true);
        } catch (IOException e) {
            logDebug("Failed to turn TCP_NODELAY on for " + socket, e);
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
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) super.remoteAddress();
    }
}
