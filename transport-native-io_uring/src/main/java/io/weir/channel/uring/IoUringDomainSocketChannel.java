package io.weir.channel.uring;

import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.ServerChannel;
import io.weir.channel.unix.DomainSocketAddress;
import io.weir.channel.unix.NativeIoException;
import io.weir.channel.unix.PeerCredentials;
import io.weir.channel.unix.Socket;
import java.io.IOException;

/**
 * A Unix domain stream connection on io_uring: connected to a {@link DomainSocketAddress} (a file-system path) or
 * accepted by an {@link IoUringServerDomainSocketChannel}. Its loop must run an {@link IoUringIoHandler}. Reads,
 * writes (backpressure included), file regions, connecting and half-closure work as for
 * {@link IoUringSocketChannel}, through the same code.
 *
 * <p>Options (besides those of every channel): {@link ChannelOption#SO_SNDBUF}, {@link ChannelOption#SO_RCVBUF}
 * and {@link ChannelOption#ALLOW_HALF_CLOSURE}. Thread-safe as every channel.
 */
public final class IoUringDomainSocketChannel extends AbstractIoUringStreamChannel {

    /**
     * A new, unconnected domain socket on {@code eventLoop}.
     *
     * @throws NullPointerException if {@code eventLoop} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run an {@link IoUringIoHandler}
     * @throws ChannelException if the socket cannot be opened
     * @throws UnsatisfiedLinkError if {@link IoUring#isAvailable()} is false
     */
    public IoUringDomainSocketChannel(EventLoop eventLoop) {
        this(null, eventLoop, openDomainSocket(), false);
    }

    /** An accepted connection, owning {@code accepted}. */
    IoUringDomainSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket accepted) {
        this(parent, eventLoop, accepted, true);
    }

    private IoUringDomainSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket socket, boolean active) {
        super(parent, eventLoop, socket, active, ChannelOption.SO_SNDBUF, ChannelOption.SO_RCVBUF);
    }

    /** Opens a Unix domain stream socket. */
    static Socket openDomainSocket() {
        IoUring.ensureAvailability();
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
