package io.weir.channel.uring;

import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.ServerChannel;
import io.weir.channel.unix.Socket;
import java.net.InetSocketAddress;

/**
 * A TCP connection on io_uring, made by {@link io.weir.bootstrap.Bootstrap} or accepted by an
 * {@link IoUringServerSocketChannel}. Its loop must run an {@link IoUringIoHandler}.
 *
 * <p>Reads, writes, file regions, connecting and half-closure work as {@link AbstractIoUringStreamChannel} says:
 * one {@code IORING_OP_RECV} in flight into a direct buffer; one {@code IORING_OP_SEND} or
 * {@code IORING_OP_WRITEV} (up to 256 buffers) in flight from the outbound buffer, whose bytes leave it when the
 * write completes, so the channel turns unwritable at the high water mark when the peer does not read;
 * {@code sendfile(2)} for file regions; a non-blocking {@code connect(2)} and a poll for writability, with
 * {@link ChannelOption#CONNECT_TIMEOUT_MILLIS}. Every buffer lent to the kernel is released by its operation's
 * completion, so a close never frees memory the kernel still uses.
 *
 * <p>Options (besides those of every channel): {@code SO_KEEPALIVE}, {@code SO_SNDBUF}, {@code SO_RCVBUF},
 * {@code SO_REUSEADDR}, {@code SO_LINGER}, {@code TCP_NODELAY} (on by default) and {@code IP_TOS}, read from and
 * written to the socket, {@link ChannelOption#ALLOW_HALF_CLOSURE}, and
 * {@link IoUringChannelOption#SEND_ZC_THRESHOLD} (zero-copy sends of large buffers, off by default).
 *
 * <p>Not yet: multishot receive into provided buffer rings, splice for file regions. Thread-safe
 * as every channel.
 */
public final class IoUringSocketChannel extends AbstractIoUringStreamChannel {

    /**
     * A new, unconnected TCP socket (IPv6 dual-stack where the kernel supports it) on {@code eventLoop}.
     *
     * @throws NullPointerException if {@code eventLoop} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run an {@link IoUringIoHandler}
     * @throws ChannelException if the socket cannot be opened
     * @throws UnsatisfiedLinkError if {@link IoUring#isAvailable()} is false
     */
    public IoUringSocketChannel(EventLoop eventLoop) {
        this(null, eventLoop, openStreamSocket(), false);
    }

    /** An accepted connection, owning {@code accepted}. */
    IoUringSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket accepted) {
        this(parent, eventLoop, accepted, true);
    }

    private IoUringSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket socket, boolean active) {
        super(parent, eventLoop, socket, active, ChannelOption.SO_KEEPALIVE, ChannelOption.SO_SNDBUF,
                ChannelOption.SO_RCVBUF, ChannelOption.SO_REUSEADDR, ChannelOption.SO_LINGER,
                ChannelOption.TCP_NODELAY, ChannelOption.IP_TOS, IoUringChannelOption.SEND_ZC_THRESHOLD);
        configure("TCP_NODELAY", s -> s.setTcpNoDelay(true));
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
