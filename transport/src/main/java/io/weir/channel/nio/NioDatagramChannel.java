package io.weir.channel.nio;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.ByteBufAllocator;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelMetadata;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.ChannelPromise;
import io.weir.channel.DatagramPacket;
import io.weir.channel.EventLoop;
import io.weir.channel.FixedRecvByteBufAllocator;
import io.weir.channel.RecvByteBufAllocator;
import io.weir.channel.internal.BindFailure;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.PortUnreachableException;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.MembershipKey;
import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A UDP socket over a NIO {@link DatagramChannel}. Reads arrive as {@link DatagramPacket}s (sender and local
 * address filled in); writes take {@link DatagramPacket}s, or plain {@link ByteBuf}s once the channel is
 * {@linkplain #connect connected}. Each datagram is one receive into a buffer of
 * {@value #DEFAULT_RECEIVE_BUFFER_BYTES} bytes by default (a {@link FixedRecvByteBufAllocator}; set
 * {@link ChannelOption#RCVBUF_ALLOCATOR} for larger datagrams: the JDK silently truncates a datagram larger
 * than the buffer). Heap content is copied once into direct memory as it is written.
 *
 * <p>The channel is active once bound. {@link #connect} filters what is received to one peer and lets plain
 * buffers be written; {@link #disconnect()} undoes it and the channel stays bound and active.
 *
 * <p>Options (besides those of every channel): {@link ChannelOption#SO_BROADCAST}, {@link ChannelOption#SO_RCVBUF},
 * {@link ChannelOption#SO_SNDBUF}, {@link ChannelOption#SO_REUSEADDR}, {@link ChannelOption#IP_TOS},
 * {@link ChannelOption#IP_MULTICAST_IF}, {@link ChannelOption#IP_MULTICAST_TTL},
 * {@link ChannelOption#IP_MULTICAST_LOOP_DISABLED}. Multicast groups are joined and left with
 * {@link #joinGroup} and {@link #leaveGroup}, whose futures complete on the event loop.
 *
 * <p>A {@link PortUnreachableException} (an ICMP answer to an earlier send on a connected channel) is fired as an
 * exception event and does not close the channel. Thread-safe as every channel.
 */
public class NioDatagramChannel extends AbstractNioChannel {
    /** Default size of the buffer each datagram is received into, in bytes. */
    public static final int DEFAULT_RECEIVE_BUFFER_BYTES = 2048;

    private static final ChannelMetadata METADATA = new ChannelMetadata(true, 16);

    private final DatagramChannel ch;
    private final NioChannelConfig config;
    // Event loop only.
    private final List<MembershipKey> memberships = new ArrayList<>();

    /**
     * A new, unbound datagram socket on {@code eventLoop} (of the platform's default protocol family).
     *
     * @throws ChannelException if the socket cannot be opened
     */
    public NioDatagramChannel(EventLoop eventLoop) {
        this(eventLoop, open(null));
    }

    /**
     * A new, unbound datagram socket of {@code family} (IPv4 or IPv6; multicast needs the family of the group).
     *
     * @throws ChannelException if the socket cannot be opened
     */
    public NioDatagramChannel(EventLoop eventLoop, ProtocolFamily family) {
        this(eventLoop, open(Objects.requireNonNull(family, "family")));
    }

    /** A channel over an existing datagram socket, which it takes ownership of. */
    public NioDatagramChannel(EventLoop eventLoop, DatagramChannel socket) {
        super(null, eventLoop, socket, NioIoOps.READ);
        this.ch = socket;
        this.config = new NioChannelConfig(this, socket, METADATA.defaultMaxMessagesPerRead(),
                ChannelOption.SO_BROADCAST, ChannelOption.SO_RCVBUF, ChannelOption.SO_SNDBUF,
                ChannelOption.SO_REUSEADDR, ChannelOption.IP_TOS, ChannelOption.IP_MULTICAST_IF,
                ChannelOption.IP_MULTICAST_TTL, ChannelOption.IP_MULTICAST_LOOP_DISABLED);
        config.setRecvByteBufAllocator(new FixedRecvByteBufAllocator(DEFAULT_RECEIVE_BUFFER_BYTES));
    }

    private static DatagramChannel open(ProtocolFamily family) {
        try {
            SelectorProvider provider = SelectorProvider.provider();
            return family == null ? provider.openDatagramChannel() : provider.openDatagramChannel(family);
        } catch (IOException e) {
            throw new ChannelException("failed to open a datagram socket", e);
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
    protected DatagramChannel javaChannel() {
        return ch;
    }

    @Override
    public boolean isActive() {
        return ch.isOpen() && ch.socket().isBound();
    }

    /** Whether the channel is connected to one peer. */
    public boolean isConnected() {
        return ch.isConnected();
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
    protected SocketAddress localAddress0() {
        try {
            return ch.getLocalAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected SocketAddress remoteAddress0() {
        try {
            return ch.getRemoteAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected void doBind(SocketAddress localAddress) throws Exception {
        BindFailure.bind(ch, localAddress);
    }

    @Override
    protected boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) throws Exception {
        if (localAddress != null) {
            BindFailure.bind(ch, localAddress);
        }
        try {
            ch.connect(remoteAddress);
        } catch (IOException e) {
            throw connectFailure(e);
        }
        return true;
    }

    @Override
    protected void doDisconnect() throws Exception {
        ch.disconnect();
        invalidateRemoteAddress();
    }

    // ---------------------------------------------------------------- reading

    @Override
    protected void readReady() {
        ChannelConfig cfg = config;
        ChannelPipeline pipeline = pipeline();
        ByteBufAllocator alloc = cfg.getAllocator();
        RecvByteBufAllocator.Handle handle = recvBufAllocHandle();
        handle.reset(cfg);
        InetSocketAddress local = localAddress();
        Throwable failure = null;
        ByteBuf buf = null;
        try {
            do {
                buf = handle.allocate(alloc);
                int writerIndex = buf.writerIndex();
                ByteBuffer target = buf.nioBuffer(writerIndex, buf.writableBytes());
                int start = target.position();
                InetSocketAddress sender = (InetSocketAddress) ch.receive(target);
                if (sender == null) {
                    break;
                }
                buf.writerIndex(writerIndex + target.position() - start);
                // Datagrams are messages: the loop is bounded by their number, not by whether buffers fill.
                handle.incMessagesRead(1);
                readServed();
                DatagramPacket packet = new DatagramPacket(buf, local, sender);
                buf = null;
                pipeline.fireChannelRead(packet);
            } while (handle.continueReading() && isOpen());
        } catch (Throwable t) {
            failure = t;
        } finally {
            if (buf != null) {
                buf.release();
            }
        }
        handle.readComplete();
        pipeline.fireChannelReadComplete();
        if (failure != null) {
            pipeline.fireExceptionCaught(failure);
            if (failure instanceof IOException && !(failure instanceof PortUnreachableException)) {
                close(voidPromise());
            }
        }
        readLoopDone();
    }

    // ---------------------------------------------------------------- writing

    /** Copies heap content into direct memory; refuses anything but packets and (when connected) buffers. */
    @Override
    protected Object filterOutboundMessage(Object msg) {
        if (msg instanceof DatagramPacket packet) {
            ByteBuf content = packet.content();
            if (content.isDirect()) {
                return packet;
            }
            try {
                return new DatagramPacket(directCopy(content), packet.recipient(), packet.sender());
            } finally {
                packet.release();
            }
        }
        if (msg instanceof ByteBuf buf) {
            if (buf.isDirect()) {
                return buf;
            }
            try {
                return directCopy(buf);
            } finally {
                buf.release();
            }
        }
        throw new UnsupportedOperationException("unsupported message type: " + msg.getClass().getName()
                + " (expected: DatagramPacket, ByteBuf)");
    }

    /** A direct copy of {@code buf}'s readable bytes, released again if the copy fails; {@code buf} stays the caller's. */
    private ByteBuf directCopy(ByteBuf buf) {
        return ByteBufUtil.copyToDirect(alloc(), buf);
    }

    /** Sends flushed datagrams, at most {@link ChannelOption#WRITE_SPIN_COUNT} per call, one per system call. */
    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        int budget = config.getWriteSpinCount();
        for (;;) {
            Object msg = in.current();
            if (msg == null) {
                writeComplete();
                return;
            }
            if (budget-- == 0) {
                incompleteWrite(false);
                return;
            }
            ByteBuf content;
            InetSocketAddress recipient;
            if (msg instanceof DatagramPacket packet) {
                content = packet.content();
                recipient = packet.recipient();
            } else {
                content = (ByteBuf) msg;
                recipient = null;
            }
            int length = content.readableBytes();
            ByteBuffer data = content.nioBuffer(content.readerIndex(), length);
            int sent;
            try {
                sent = recipient != null ? ch.send(data, recipient) : ch.write(data);
            } catch (SocketException e) {
                // One datagram's problem (no route, too long, port unreachable): fail its write, not the channel.
                in.remove(e);
                continue;
            }
            // An empty datagram is sent as such and reports 0 bytes.
            if (sent == 0 && length != 0) {
                incompleteWrite(true);
                return;
            }
            in.remove();
        }
    }

    // ---------------------------------------------------------------- multicast

    /**
     * Joins multicast group {@code group} on the interface of {@link ChannelOption#IP_MULTICAST_IF}, or else the
     * interface of the channel's local address.
     */
    public ChannelFuture joinGroup(InetAddress group) {
        return joinGroup(group, null, null, newPromise());
    }

    /** Joins multicast group {@code group} on {@code networkInterface}. */
    public ChannelFuture joinGroup(InetAddress group, NetworkInterface networkInterface) {
        return joinGroup(group, networkInterface, null, newPromise());
    }

    /**
     * Joins multicast group {@code group} on {@code networkInterface} ({@code null}: as {@link #joinGroup(InetAddress)}),
     * receiving only from {@code source} if it is not {@code null} (source-specific multicast). The promise
     * fails with the {@link IOException} of the JDK if the join is refused.
     *
     * @throws NullPointerException if {@code group} or {@code promise} is null
     */
    public ChannelFuture joinGroup(InetAddress group, NetworkInterface networkInterface, InetAddress source,
                                   ChannelPromise promise) {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(promise, "promise");
        runOnLoop(() -> {
            try {
                NetworkInterface iface = networkInterface != null ? networkInterface : defaultInterface();
                MembershipKey key = source == null ? ch.join(group, iface) : ch.join(group, iface, source);
                memberships.add(key);
                promise.trySuccess();
            } catch (Throwable t) {
                promise.tryFailure(t);
            }
        }, promise);
        return promise;
    }

    /** Leaves multicast group {@code group} on every interface it was joined on. */
    public ChannelFuture leaveGroup(InetAddress group) {
        return leaveGroup(group, null, null, newPromise());
    }

    /**
     * Leaves the memberships of {@code group} matching {@code networkInterface} and {@code source} ({@code null}
     * matches any). The promise fails with {@link IllegalStateException} if no membership matched.
     *
     * @throws NullPointerException if {@code group} or {@code promise} is null
     */
    public ChannelFuture leaveGroup(InetAddress group, NetworkInterface networkInterface, InetAddress source,
                                    ChannelPromise promise) {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(promise, "promise");
        runOnLoop(() -> {
            boolean left = false;
            for (int i = memberships.size() - 1; i >= 0; i--) {
                MembershipKey key = memberships.get(i);
                if (key.group().equals(group)
                        && (networkInterface == null || key.networkInterface().equals(networkInterface))
                        && (source == null || source.equals(key.sourceAddress()))) {
                    key.drop();
                    memberships.remove(i);
                    left = true;
                }
            }
            if (left) {
                promise.trySuccess();
            } else {
                promise.tryFailure(new IllegalStateException("not a member of " + group
                        + (networkInterface != null ? " on " + networkInterface.getName() : "")));
            }
        }, promise);
        return promise;
    }

    private NetworkInterface defaultInterface() throws IOException {
        NetworkInterface iface = ch.getOption(java.net.StandardSocketOptions.IP_MULTICAST_IF);
        if (iface != null) {
            return iface;
        }
        InetSocketAddress local = localAddress();
        if (local != null && !local.getAddress().isAnyLocalAddress()) {
            iface = NetworkInterface.getByInetAddress(local.getAddress());
        }
        if (iface == null) {
            throw new SocketException("no interface to join on: set IP_MULTICAST_IF, bind to an interface's address,"
                    + " or pass the interface");
        }
        return iface;
    }

    private void runOnLoop(Runnable task, ChannelPromise promise) {
        if (eventLoop().inEventLoop()) {
            task.run();
        } else {
            try {
                eventLoop().execute(task);
            } catch (RuntimeException e) {
                promise.tryFailure(e);
            }
        }
    }

    @Override
    protected void doClose() throws Exception {
        // Closing the socket drops its memberships.
        memberships.clear();
        super.doClose();
    }
}
