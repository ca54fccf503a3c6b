package io.weir.channel.kqueue;

import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.EventLoop;
import io.weir.channel.ServerChannel;
import io.weir.channel.unix.DomainSocketAddress;
import io.weir.channel.unix.PeerCredentials;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.AbstractUnixStreamChannel;
import io.weir.channel.unix.internal.UnixChannelConfig;
import java.io.IOException;

/**
 * A Unix domain stream connection driven by a {@link KQueueIoHandler}, addressed by {@link DomainSocketAddress}.
 * Reads, writes and half-closure as {@link KQueueSocketChannel}; options {@code SO_SNDBUF}, {@code SO_RCVBUF}
 * and {@link KQueueChannelOption#SO_SNDLOWAT}.
 *
 * <p>Thread-safe as every {@link io.weir.channel.Channel}.
 */
public final class KQueueDomainSocketChannel extends AbstractUnixStreamChannel {
    private final KQueueChannelConfig config;

    /**
     * An unconnected channel on {@code eventLoop}.
     *
     * @throws UnsatisfiedLinkError if {@link KQueue#isAvailable()} is false
     * @throws IllegalArgumentException if {@code eventLoop} does not run a {@link KQueueIoHandler}
     * @throws ChannelException if no socket could be opened
     */
    public KQueueDomainSocketChannel(EventLoop eventLoop) {
        this(null, eventLoop, KQueueChannelHandle.TRANSPORT.openDomainSocket(), false);
    }

    /** An accepted connection of {@code parent}. */
    KQueueDomainSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket socket) {
        this(parent, eventLoop, socket, true);
    }

    private KQueueDomainSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket socket, boolean active) {
        super(parent, eventLoop, socket, active, KQueueChannelHandle.TRANSPORT);
        config = new KQueueChannelConfig(this, DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ,
                UnixChannelConfig.NO_BACKLOG, ChannelOption.SO_SNDBUF, ChannelOption.SO_RCVBUF,
                KQueueChannelOption.SO_SNDLOWAT);
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
     * The process at the other end (pid, uid, gid), as the kernel recorded it at connect time.
     *
     * @throws IOException if the socket is closed or the kernel refuses
     */
    public PeerCredentials peerCredentials() throws IOException {
        return socket.peerCredentials();
    }
}
