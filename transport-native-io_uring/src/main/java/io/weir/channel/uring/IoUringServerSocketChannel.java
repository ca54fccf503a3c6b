package io.weir.channel.uring;

import io.weir.channel.Channel;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.unix.Socket;
import java.net.InetSocketAddress;

/**
 * A listening TCP socket on io_uring: one multishot {@code IORING_OP_ACCEPT} (Linux 5.19; one accept per
 * submission before) delivers each connection as an {@link IoUringSocketChannel} on
 * {@link #childEventLoopGroup()}{@code .next()}, fired with {@code channelRead}. Its loop must run an
 * {@link IoUringIoHandler}.
 *
 * <p>Accepting goes on while a read is wanted (auto-read, or {@link Channel#read()} until a connection was
 * delivered); once neither holds, the accept is cancelled. When accepting fails (out of descriptors) the channel
 * stays open, fires {@code exceptionCaught} and pauses for a doubling while
 * ({@link io.weir.channel.internal.AcceptBackoff}); the connections the kernel queued meanwhile are accepted after
 * the pause. An accepted channel that no handler takes is closed. Writing fails with
 * {@link UnsupportedOperationException}.
 *
 * <p>Options: {@link ChannelOption#SO_BACKLOG} (used when binding), {@code SO_REUSEADDR} (on by default),
 * {@code SO_RCVBUF} (inherited by accepted sockets) and {@code SO_REUSEPORT}. Thread-safe as every channel.
 */
public final class IoUringServerSocketChannel extends AbstractIoUringServerChannel {
    /** Default {@link ChannelOption#SO_BACKLOG}: pending connections the kernel queues before accept. */
    public static final int DEFAULT_BACKLOG = AbstractIoUringServerChannel.DEFAULT_BACKLOG;

    private static final ChannelOption<Boolean> SO_REUSEPORT = ChannelOption.valueOf("SO_REUSEPORT");

    /**
     * A new, unbound server socket (IPv6 dual-stack where the kernel supports it) on {@code eventLoop} whose
     * accepted channels go to loops of {@code childGroup}.
     *
     * @throws NullPointerException if {@code eventLoop} or {@code childGroup} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run an {@link IoUringIoHandler}
     * @throws ChannelException if the socket cannot be opened or set up
     * @throws UnsatisfiedLinkError if {@link IoUring#isAvailable()} is false
     */
    public IoUringServerSocketChannel(EventLoop eventLoop, EventLoopGroup childGroup) {
        super(eventLoop, childGroup, openStreamSocket(), ChannelOption.SO_REUSEADDR, ChannelOption.SO_RCVBUF,
                SO_REUSEPORT);
        configure("SO_REUSEADDR", s -> s.setReuseAddress(true));
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
    }

    @Override
    Channel newChildChannel(EventLoop eventLoop, Socket accepted) {
        return new IoUringSocketChannel(this, eventLoop, accepted);
    }
}
