package io.weir.channel.epoll;

import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.EventLoop;
import io.weir.channel.ServerChannel;
import io.weir.channel.unix.DomainSocketAddress;
import io.weir.channel.unix.NativeIoException;
import io.weir.channel.unix.PeerCredentials;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.UnixChannelConfig;
import java.io.IOException;

/**
 * A Unix domain stream connection over the Linux epoll transport: connected to a {@link DomainSocketAddress}
 * (a file-system path) or accepted by an {@link EpollServerDomainSocketChannel}. Reads, writes and half-closure
 * work as for {@link EpollSocketChannel}.
 *
 * <p>Options (besides those of every channel): {@link ChannelOption#SO_SNDBUF}, {@link ChannelOption#SO_RCVBUF}
 * and {@link ChannelOption#ALLOW_HALF_CLOSURE}. Thread-safe as every channel.
 */
public final class EpollDomainSocketChannel extends AbstractEpollStreamChannel {
    private final EpollChannelConfig config;

    /**
     * A new, unconnected domain socket on {@code eventLoop}.
     *
     * @throws NullPointerException if {@code eventLoop} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run an {@link EpollIoHandler}
     * @throws ChannelException if the socket cannot be opened
     * @throws UnsatisfiedLinkError if {@link Epoll#isAvailable()} is false
     */
    public EpollDomainSocketChannel(EventLoop eventLoop) {
        this(null, eventLoop, EpollChannelHandle.TRANSPORT.openDomainSocket(), false);
    }

    /** An accepted connection, owned by this channel from now on (closed if the construction fails). */
    EpollDomainSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket socket) {
        this(parent, eventLoop, socket, true);
    }

    private EpollDomainSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket socket, boolean active) {
        super(parent, eventLoop, socket, active);
        this.config = new EpollChannelConfig(this, DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ,
                UnixChannelConfig.NO_BACKLOG, ChannelOption.SO_SNDBUF, ChannelOption.SO_RCVBUF);
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
    public DomainSocketAddress remoteAddress() {
        return (DomainSocketAddress) super.remoteAddress();
    }

    /**
     * The credentials (pid, uid, gid) of the peer process as the kernel saw them when the connection was made
     * ({@code SO_PEERCRED}). Any thread.
     *
     * @throws java.nio.channels.ClosedChannelException if the channel is closed
     * @throws NativeIoException if the kernel refused (for instance before the connection was made)
     */
    public PeerCredentials peerCredentials() throws IOException {
        return socket.peerCredentials();
    }
}
