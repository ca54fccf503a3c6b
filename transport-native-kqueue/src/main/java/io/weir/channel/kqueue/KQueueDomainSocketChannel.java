package io.weir.channel.kqueue;

import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.ServerChannel;
import io.weir.channel.unix.DomainSocketAddress;
import io.weir.channel.unix.PeerCredentials;
import io.weir.channel.unix.Socket;
import java.io.IOException;

/**
 * A Unix domain stream connection driven by a {@link KQueueIoHandler}, addressed by {@link DomainSocketAddress}.
 * Reads, writes and half-closure as {@link KQueueSocketChannel}; options {@code SO_SNDBUF}, {@code SO_RCVBUF}
 * and {@link KQueueChannelOption#SO_SNDLOWAT}.
 *
 * <p>Thread-safe as every {@link io.weir.channel.Channel}.
 */
public final class KQueueDomainSocketChannel extends AbstractKQueueStreamChannel {

    /**
     * An unconnected channel on {@code eventLoop}.
     *
     * @throws UnsatisfiedLinkError if {@link KQueue#isAvailable()} is false
     * @throws IllegalArgumentException if {@code eventLoop} does not run a {@link KQueueIoHandler}
     * @throws ChannelException if no socket could be opened
     */
    public KQueueDomainSocketChannel(EventLoop eventLoop) {
        this(null, eventLoop, openDomainSocket(), false);
    }

    /** An accepted connection of {@code parent}. */
    KQueueDomainSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket socket) {
        this(parent, eventLoop, socket, true);
    }

    private KQueueDomainSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket socket, boolean active) {
        super(parent, checkCompatible(eventLoop, socket), socket, active, ChannelOption.SO_SNDBUF,
                ChannelOption.SO_RCVBUF, KQueueChannelOption.SO_SNDLOWAT);
    }

    /** Opens a Unix domain stream socket, turning a failure into a {@link ChannelException}. */
    static Socket openDomainSocket() {
        KQueue.ensureAvailability();
        try {
            return Socket.newSocketDomain();
        } catch (IOException e) {
            throw new ChannelException("failed to open a domain socket", e);
        }
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
