package io.weir.channel.epoll;

import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelPromise;
import io.weir.channel.DefaultChannelConfig;
import io.weir.channel.EventLoop;
import io.weir.channel.ServerChannel;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.FileDescriptor;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.internal.UnixChannelConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.Objects;

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
 * {@link EpollChannelOption#TCP_KEEPCNT}, {@link EpollChannelOption#TCP_FASTOPEN_CONNECT},
 * {@link EpollChannelOption#IP_TRANSPARENT}, {@link EpollChannelOption#IP_FREEBIND},
 * {@link EpollChannelOption#SO_BUSY_POLL}. A failure to read or set one is a {@link ChannelException}.
 *
 * <p>Linux extras: {@link io.weir.channel.DefaultFileRegion}s are sent with {@code sendfile(2)};
 * {@link #spliceTo(EpollSocketChannel, int)} forwards input to another connection with {@code splice(2)}, and
 * {@link #tcpInfo()} reads the kernel's view of the connection.
 *
 * <p>Half-closure ({@link io.weir.channel.DuplexChannel}): {@link #shutdownOutput()} sends FIN after failing
 * queued writes; {@link #shutdownInput()} stops reading. With {@code ALLOW_HALF_CLOSURE} on, the peer's FIN shuts
 * the input down and fires {@link io.weir.channel.ChannelInputShutdownEvent} while the output stays writable.
 *
 * <p>Thread-safe as every channel. Closing with a positive {@code SO_LINGER} blocks the event loop until the
 * kernel has sent what it holds or the linger time ran out.
 */
public final class EpollSocketChannel extends AbstractEpollStreamChannel {
    /** The socket options this channel reads and writes through the socket; one array for every channel. */
    private static final ChannelOption<?>[] SOCKET_OPTIONS = {
        ChannelOption.SO_KEEPALIVE, ChannelOption.SO_SNDBUF, ChannelOption.SO_RCVBUF,
        ChannelOption.SO_REUSEADDR, ChannelOption.SO_LINGER, ChannelOption.TCP_NODELAY, ChannelOption.IP_TOS,
        EpollChannelOption.SO_REUSEPORT, EpollChannelOption.TCP_QUICKACK, EpollChannelOption.TCP_CORK,
        EpollChannelOption.TCP_NOTSENT_LOWAT, EpollChannelOption.TCP_USER_TIMEOUT,
        EpollChannelOption.TCP_KEEPIDLE, EpollChannelOption.TCP_KEEPINTVL, EpollChannelOption.TCP_KEEPCNT,
        EpollChannelOption.TCP_FASTOPEN_CONNECT, EpollChannelOption.IP_TRANSPARENT,
        EpollChannelOption.IP_FREEBIND, EpollChannelOption.SO_BUSY_POLL
    };
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
        this(null, eventLoop, EpollChannelHandle.TRANSPORT.openStreamSocket(), false);
    }

    /** An accepted connection, owned by this channel from now on (closed if the construction fails). */
    EpollSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket socket) {
        this(parent, eventLoop, socket, true);
    }

    private EpollSocketChannel(ServerChannel parent, EventLoop eventLoop, Socket socket, boolean active) {
        super(parent, eventLoop, socket, active);
        this.config = new EpollChannelConfig(this, DefaultChannelConfig.DEFAULT_MAX_MESSAGES_PER_READ,
                UnixChannelConfig.NO_BACKLOG, SOCKET_OPTIONS);
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

    /**
     * The kernel's view of this connection now ({@code getsockopt(TCP_INFO)}): state, round-trip times, congestion
     * window, retransmissions. Any thread; each call makes a new snapshot.
     *
     * @throws ChannelException caused by a {@link ClosedChannelException} if the channel is closed, or by an
     *         {@link io.weir.channel.unix.NativeIoException} if the kernel refused
     */
    public EpollTcpInfo tcpInfo() {
        long[] values = new long[EpollSocketNative.TCP_INFO_COUNT];
        try {
            if (!socket.isOpen()) {
                throw new ClosedChannelException();
            }
            int res = EpollSocketNative.tcpInfo(socket.intValue(), values);
            if (res < 0) {
                throw Errors.newIoException("getsockopt(TCP_INFO)", res);
            }
        } catch (IOException e) {
            throw new ChannelException("failed to read TCP_INFO of " + this, e);
        }
        return new EpollTcpInfo(values);
    }

    /** {@link #spliceTo(EpollSocketChannel, int, ChannelPromise)} with a new promise. */
    public ChannelFuture spliceTo(EpollSocketChannel target, int len) {
        return spliceTo(target, len, newPromise());
    }

    /**
     * Moves the next {@code len} bytes this channel receives to {@code target} with {@code splice(2)} through a
     * kernel pipe: the bytes never enter the JVM and no handler of either channel sees them. Splices run in the
     * order they were asked for; while one is queued, this channel's input feeds it instead of firing
     * {@code channelRead} (reading happens whatever {@link ChannelOption#AUTO_READ} says), and afterwards reading
     * goes on as configured. In {@code target} the bytes are sent in order with its other writes; while
     * {@code target} cannot keep up this channel reads no more, so its peer meets a full window. Any thread.
     *
     * @param target an active channel on the same event loop as this one
     * @param len the bytes to move, {@code > 0}
     * @return {@code promise}, completed once all {@code len} bytes were handed to {@code target}'s socket; failed
     *         with a {@link ClosedChannelException} if either channel closes first, an {@link java.io.EOFException}
     *         if this channel's input ends first, or the error of either socket (the bytes then in the pipe are
     *         lost)
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code target} is this channel or on another event loop, {@code len} is
     *         not positive, or {@code promise} belongs to another channel
     */
    public ChannelFuture spliceTo(EpollSocketChannel target, int len, ChannelPromise promise) {
        Objects.requireNonNull(target, "target");
        checkSplice(len, promise);
        if (target == this) {
            throw new IllegalArgumentException("cannot splice a channel to itself: " + this);
        }
        if (target.eventLoop() != eventLoop()) {
            throw new IllegalArgumentException("target " + target + " is on event loop " + target.eventLoop()
                    + ", not on " + eventLoop() + " (splicing channels must share their loop)");
        }
        splice(target, null, 0, len, promise);
        return promise;
    }

    /** {@link #spliceTo(FileDescriptor, long, int, ChannelPromise)} with a new promise. */
    public ChannelFuture spliceTo(FileDescriptor target, long offset, int len) {
        return spliceTo(target, offset, len, newPromise());
    }

    /**
     * Moves the next {@code len} bytes this channel receives into the file {@code target} at {@code offset} with
     * {@code splice(2)}, without them entering the JVM; the file's own position does not move. Queued and ordered
     * like {@link #spliceTo(EpollSocketChannel, int, ChannelPromise)}. {@code target} must be a regular file open
     * for writing (a descriptor that could say "try again", such as a socket, fails the splice); it stays owned by
     * the caller, who must keep it open until the promise completes. Writes run on the event loop. Any thread.
     *
     * @return {@code promise}, completed once {@code len} bytes were written; failed as for a channel target, or
     *         with the {@link io.weir.channel.unix.NativeIoException} of the file
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code offset} is negative, {@code len} not positive, or {@code promise}
     *         belongs to another channel
     */
    public ChannelFuture spliceTo(FileDescriptor target, long offset, int len, ChannelPromise promise) {
        Objects.requireNonNull(target, "target");
        checkSplice(len, promise);
        if (offset < 0) {
            throw new IllegalArgumentException("offset: " + offset + " (expected: >= 0)");
        }
        splice(null, target, offset, len, promise);
        return promise;
    }

    private void checkSplice(int len, ChannelPromise promise) {
        Objects.requireNonNull(promise, "promise");
        if (len <= 0) {
            throw new IllegalArgumentException("len: " + len + " (expected: > 0)");
        }
        if (promise.channel() != this) {
            throw new IllegalArgumentException("promise of another channel: " + promise.channel());
        }
    }
}
