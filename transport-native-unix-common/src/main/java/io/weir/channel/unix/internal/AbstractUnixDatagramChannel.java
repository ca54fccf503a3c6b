package io.weir.channel.unix.internal;

import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelMetadata;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelPromise;
import io.weir.channel.EventLoop;
import io.weir.channel.FixedRecvByteBufAllocator;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;

/**
 * A UDP socket of a native transport, shared by epoll and kqueue: binding, connecting to one peer and
 * disconnecting without losing the port, multicast memberships, the options, and preparing outbound messages for
 * native memory ({@link DatagramChannels}). The subclass supplies its read loop and {@code doWrite} (one
 * datagram per system call, or batches where the kernel has {@code recvmmsg}/{@code sendmmsg}).
 *
 * <p>The channel is active once bound (a connect binds an unbound socket). Options, read from and written to the
 * socket: {@code SO_BROADCAST}, {@code SO_RCVBUF}, {@code SO_SNDBUF}, {@code SO_REUSEADDR}, {@code IP_TOS},
 * {@code IP_MULTICAST_IF}, {@code IP_MULTICAST_TTL}, {@code IP_MULTICAST_LOOP_DISABLED} and {@code SO_REUSEPORT};
 * each datagram is received into a buffer of the {@link ChannelOption#RCVBUF_ALLOCATOR}'s size
 * ({@value #DEFAULT_RECEIVE_BUFFER_BYTES} bytes by default). Event-loop hooks only; not for applications.
 */
public abstract class AbstractUnixDatagramChannel extends AbstractUnixChannel {
    /** Default size of the buffer each datagram is received into, in bytes (as {@code NioDatagramChannel}'s). */
    public static final int DEFAULT_RECEIVE_BUFFER_BYTES = 2048;

    private static final ChannelMetadata METADATA = new ChannelMetadata(true, 16);

    private final UnixChannelConfig config;
    private final MulticastMemberships memberships;
    // Read from any thread through isActive() and isConnected().
    private volatile boolean bound;
    private volatile boolean connected;

    /** See {@link AbstractUnixChannel}. */
    protected AbstractUnixDatagramChannel(EventLoop eventLoop, Socket socket, UnixTransport transport) {
        super(null, eventLoop, socket, false, transport, 0);
        config = new UnixChannelConfig(this, METADATA.defaultMaxMessagesPerRead(), UnixChannelConfig.NO_BACKLOG,
                ChannelOption.SO_RCVBUF, ChannelOption.SO_SNDBUF, ChannelOption.SO_REUSEADDR, ChannelOption.IP_TOS,
                ChannelOption.valueOf("SO_REUSEPORT"), ChannelOption.SO_BROADCAST, ChannelOption.IP_MULTICAST_IF,
                ChannelOption.IP_MULTICAST_TTL, ChannelOption.IP_MULTICAST_LOOP_DISABLED);
        config.setRecvByteBufAllocator(new FixedRecvByteBufAllocator(DEFAULT_RECEIVE_BUFFER_BYTES));
        memberships = new MulticastMemberships(this, socket);
    }

    @Override
    public final ChannelConfig config() {
        return config;
    }

    @Override
    public final ChannelMetadata metadata() {
        return METADATA;
    }

    @Override
    public final boolean isActive() {
        return bound && socket.isOpen();
    }

    /** Whether the channel is connected to one peer. */
    public final boolean isConnected() {
        return connected && socket.isOpen();
    }

    /** Whether plain buffers may be written: the channel is connected. Event loop only. */
    protected final boolean connected() {
        return connected;
    }

    @Override
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) super.localAddress();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) super.remoteAddress();
    }

    @Override
    protected final void doBind(SocketAddress localAddress) throws Exception {
        socket.bind(localAddress);
        bound = true;
    }

    @Override
    protected final boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) throws Exception {
        if (localAddress != null) {
            socket.bind(localAddress);
            bound = true;
        }
        // A UDP connect only records the peer (binding an unbound socket): it completes at once or fails.
        socket.connect(remoteAddress);
        bound = true;
        connected = true;
        return true;
    }

    @Override
    protected final void doDisconnect() throws Exception {
        InetSocketAddress before = DatagramChannels.disconnect(socket);
        connected = false;
        boolean stillBound = false;
        try {
            stillBound = DatagramChannels.keepPort(socket, before);
        } finally {
            // Left unbound if another socket took the port in between: the channel says so.
            bound = stillBound;
        }
    }

    @Override
    protected final void doClose() throws Exception {
        connected = false;
        // Closing the socket drops its memberships.
        memberships.clear();
        releaseReceiveBuffers();
        super.doClose();
    }

    /** The channel closes: release the receive buffers kept for the next read. Event loop only. */
    protected abstract void releaseReceiveBuffers();

    /** See {@link DatagramChannels#filterOutbound}. */
    @Override
    protected final Object filterOutboundMessage(Object msg) {
        return DatagramChannels.filterOutbound(msg, alloc());
    }

    /**
     * What {@code operation} failing with {@code -errno} {@code res} means: a port-unreachable report (an ICMP
     * answer to an earlier send), or another I/O error.
     */
    protected static IOException ioFailure(String operation, int res) {
        if (res == -Errors.ECONNREFUSED) {
            return DatagramChannels.portUnreachable(operation, res);
        }
        return Errors.newIoException(operation, res);
    }

    // ---------------------------------------------------------------- multicast

    /**
     * Joins multicast group {@code group} on the interface of {@link ChannelOption#IP_MULTICAST_IF}, else the
     * interface of the channel's local address, else the one the routing table picks for the group.
     */
    public final ChannelFuture joinGroup(InetAddress group) {
        return joinGroup(group, null, null, newPromise());
    }

    /** Joins multicast group {@code group} on {@code networkInterface}. */
    public final ChannelFuture joinGroup(InetAddress group, NetworkInterface networkInterface) {
        return joinGroup(group, networkInterface, null, newPromise());
    }

    /**
     * Joins multicast group {@code group} on {@code networkInterface} ({@code null}: as
     * {@link #joinGroup(InetAddress)}), receiving only from {@code source} if it is not {@code null}
     * (source-specific multicast; same family as the group). The promise fails with a
     * {@link io.weir.channel.unix.NativeIoException} if the kernel refuses.
     *
     * @throws NullPointerException if {@code group} or {@code promise} is null
     */
    public final ChannelFuture joinGroup(InetAddress group, NetworkInterface networkInterface, InetAddress source,
                                         ChannelPromise promise) {
        return memberships.join(group, networkInterface, source, promise);
    }

    /** Leaves multicast group {@code group} on every interface it was joined on. */
    public final ChannelFuture leaveGroup(InetAddress group) {
        return leaveGroup(group, null, null, newPromise());
    }

    /**
     * Leaves the memberships of {@code group} matching {@code networkInterface} and {@code source} ({@code null}
     * matches any). The promise fails with {@link IllegalStateException} if no membership matched.
     *
     * @throws NullPointerException if {@code group} or {@code promise} is null
     */
    public final ChannelFuture leaveGroup(InetAddress group, NetworkInterface networkInterface, InetAddress source,
                                          ChannelPromise promise) {
        return memberships.leave(group, networkInterface, source, promise);
    }
}
