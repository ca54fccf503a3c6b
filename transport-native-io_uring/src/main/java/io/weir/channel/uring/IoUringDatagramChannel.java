package io.weir.channel.uring;

import io.weir.buffer.ByteBuf;
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
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.TruncatedDatagramException;
import io.weir.channel.unix.internal.DatagramChannels;
import io.weir.channel.unix.internal.DatagramSlots;
import io.weir.channel.unix.internal.MulticastMemberships;
import io.weir.channel.unix.internal.UnixChannelConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.PortUnreachableException;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Arrays;
import java.util.Objects;

/**
 * A UDP socket on io_uring: the counterpart of {@code EpollDatagramChannel} on loops of
 * {@code new MultiThreadIoEventLoopGroup(n, IoUringIoHandler.newFactory())}, with the same API. Reads arrive as
 * {@link DatagramPacket}s (sender and local address filled in, content a direct buffer the handler owns); writes
 * take {@link DatagramPacket}s, or plain {@link ByteBuf}s once the channel is {@linkplain #connect connected}.
 * Heap (or multi-component) content is copied once into a direct buffer as it is written.
 *
 * <p><b>Reading.</b> One {@code IORING_OP_RECVMSG} in flight while a read is wanted (auto-read, or
 * {@link io.weir.channel.Channel#read()}), into a direct buffer of the {@link ChannelOption#RCVBUF_ALLOCATOR}'s
 * size ({@value #DEFAULT_RECEIVE_BUFFER_BYTES} bytes by default, a {@link FixedRecvByteBufAllocator}); each
 * completion is one {@code channelRead} and one {@code channelReadComplete}.
 *
 * <p><b>Writing.</b> A flush submits up to {@value #MAX_SENDS_IN_FLIGHT} flushed datagrams at once, one
 * {@code IORING_OP_SENDMSG} each, linked ({@code IOSQE_IO_LINK}) so that the kernel sends them in order. A
 * datagram leaves the outbound buffer when its send completes, so a socket the kernel cannot drain keeps the
 * datagrams queued and the channel turns unwritable at the high water mark like any other; the next batch goes out
 * once the last completion of this one arrived.
 *
 * <p><b>Memory lent to the kernel.</b> Each operation points the kernel at a {@code struct msghdr}, an iovec and a
 * socket address in a native block the channel owns ({@link IoUringDatagramNative}), and at a buffer: the receive
 * buffer, or the content of a datagram being sent, which the channel retains. Both stay valid until that
 * operation's completion, which a close turns into an {@code -ECANCELED} one; the blocks are freed only once the
 * channel is closed and no operation is in flight, so no completion ever writes into freed memory.
 *
 * <p><b>Truncated datagrams are dropped, not delivered.</b> The receive asks the kernel for each datagram's real
 * length ({@code MSG_TRUNC}); a datagram larger than its buffer is dropped and a
 * {@link TruncatedDatagramException} is fired (the channel stays open), as on epoll and kqueue.
 *
 * <p><b>Errors.</b> Writing to an unresolved address fails that write's promise with
 * {@link UnresolvedAddressException}; a plain buffer written while not connected with
 * {@link NotYetConnectedException}; a datagram the kernel refuses (no route, too long) fails its own promise only.
 * A {@link PortUnreachableException} (an ICMP answer to an earlier send on a connected channel) is fired as an
 * exception event, or fails the write it was reported for, and does not close the channel; other read failures
 * close it.
 *
 * <p>The channel is active once bound (a connect binds an unbound socket). {@link #connect} filters what is
 * received to one peer and lets plain buffers be written; {@link #disconnect()} undoes it, and the channel stays
 * bound and active if it was bound.
 *
 * <p>Options (besides those of every channel), read from and written to the socket:
 * {@link ChannelOption#SO_BROADCAST}, {@link ChannelOption#SO_RCVBUF}, {@link ChannelOption#SO_SNDBUF},
 * {@link ChannelOption#SO_REUSEADDR}, {@link ChannelOption#IP_TOS}, {@link ChannelOption#IP_MULTICAST_IF},
 * {@link ChannelOption#IP_MULTICAST_TTL}, {@link ChannelOption#IP_MULTICAST_LOOP_DISABLED} and {@code SO_REUSEPORT}.
 * A failure to read or set one is a {@link ChannelException}. Multicast groups are joined and left with
 * {@link #joinGroup} and {@link #leaveGroup}, whose futures complete on the event loop.
 *
 * <p>Thread-safe as every channel.
 */
public final class IoUringDatagramChannel extends AbstractIoUringChannel {
    /** Default size of the buffer each datagram is received into, in bytes (as {@code NioDatagramChannel}'s). */
    public static final int DEFAULT_RECEIVE_BUFFER_BYTES = 2048;
    /** The most datagrams one flush has in flight; the next ones go out when these completed. */
    public static final int MAX_SENDS_IN_FLIGHT = 16;

    private static final ChannelMetadata METADATA = new ChannelMetadata(true, 16);
    /** {@code IOSQE_IO_LINK}: the next SQE starts only once this one completed (and is cancelled if it failed). */
    private static final byte IOSQE_IO_LINK = 1 << 2;
    /** The {@code data} of the receive; send {@code i} of a batch has {@code i + 1}, its block's index. */
    private static final short RECEIVE = 0;

    private final MulticastMemberships memberships;
    private final SendBatch batch = new SendBatch();
    // Read from any thread through isActive() and isConnected().
    private volatile boolean bound;
    private volatile boolean connected;
    // Event loop only: the native blocks of the operations (block 0 the receive's, block i + 1 send i's), made on
    // first use and freed once the channel is closed and nothing is in flight; the buffer being received into.
    private ByteBuf blocks;
    private long blocksAddress;
    private ByteBuf receiving;

    /**
     * A new, unbound UDP socket (IPv6 dual-stack where the kernel supports it) on {@code eventLoop}.
     *
     * @throws NullPointerException if {@code eventLoop} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run an {@link IoUringIoHandler}
     * @throws ChannelException if the socket cannot be opened
     * @throws UnsatisfiedLinkError if {@link IoUring#isAvailable()} is false
     */
    public IoUringDatagramChannel(EventLoop eventLoop) {
        this(eventLoop, openDatagramSocket(null));
    }

    /**
     * A new, unbound UDP socket of {@code family}: {@link StandardProtocolFamily#INET} (IPv4 only) or
     * {@link StandardProtocolFamily#INET6} (dual-stack).
     *
     * @throws IllegalArgumentException if {@code family} is neither, or as {@link #IoUringDatagramChannel(EventLoop)}
     * @throws ChannelException if the socket cannot be opened (for instance INET6 on a kernel without IPv6)
     */
    public IoUringDatagramChannel(EventLoop eventLoop, ProtocolFamily family) {
        this(eventLoop, openDatagramSocket(Objects.requireNonNull(family, "family")));
    }

    private IoUringDatagramChannel(EventLoop eventLoop, Socket socket) {
        super(null, eventLoop, socket, false, METADATA, UnixChannelConfig.NO_BACKLOG, ChannelOption.SO_RCVBUF,
                ChannelOption.SO_SNDBUF, ChannelOption.SO_REUSEADDR, ChannelOption.IP_TOS,
                ChannelOption.valueOf("SO_REUSEPORT"), ChannelOption.SO_BROADCAST, ChannelOption.IP_MULTICAST_IF,
                ChannelOption.IP_MULTICAST_TTL, ChannelOption.IP_MULTICAST_LOOP_DISABLED);
        config.setRecvByteBufAllocator(new FixedRecvByteBufAllocator(DEFAULT_RECEIVE_BUFFER_BYTES));
        memberships = new MulticastMemberships(this, socket);
    }

    private static Socket openDatagramSocket(ProtocolFamily family) {
        IoUring.ensureAvailability();
        return DatagramChannels.open(family);
    }

    @Override
    public boolean isActive() {
        return bound && socket.isOpen();
    }

    /** Whether the channel is connected to one peer. Any thread. */
    public boolean isConnected() {
        return connected && socket.isOpen();
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
    protected void doBind(SocketAddress localAddress) throws Exception {
        socket.bind(localAddress);
        bound = true;
    }

    @Override
    protected boolean doConnect(SocketAddress remoteAddress, SocketAddress localAddress) throws Exception {
        if (localAddress != null) {
            doBind(localAddress);
        }
        // A UDP connect only records the peer (binding an unbound socket): it completes at once or fails.
        socket.connect(remoteAddress);
        bound = true;
        connected = true;
        return true;
    }

    @Override
    protected void doDisconnect() throws Exception {
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
    protected void doClose() throws Exception {
        connected = false;
        // Closing the socket drops its memberships.
        memberships.clear();
        try {
            super.doClose();
        } finally {
            freeBlocksWhenIdle();
        }
    }

    /** See {@link DatagramChannels#filterOutbound}. */
    @Override
    protected Object filterOutboundMessage(Object msg) {
        return DatagramChannels.filterOutbound(msg, alloc());
    }

    // ---------------------------------------------------------------- native blocks

    /** The address of block {@code index}, allocating the blocks on first use. Event loop only. */
    private long block(int index) {
        if (blocks == null) {
            int bytes = IoUringDatagramNative.MSG_BYTES * (1 + MAX_SENDS_IN_FLIGHT);
            ByteBuf memory = config.getAllocator().directBuffer(bytes, bytes);
            blocksAddress = DatagramChannels.memoryAddress(memory, 0, bytes);
            blocks = memory;
        }
        return blocksAddress + (long) index * IoUringDatagramNative.MSG_BYTES;
    }

    /** Frees the blocks once the channel is closed and the kernel holds none of them. */
    private void freeBlocksWhenIdle() {
        if (blocks != null && !isOpen() && receiving == null && batch.submitted == 0) {
            ByteBuf memory = blocks;
            blocks = null;
            blocksAddress = 0;
            memory.release();
        }
    }

    /** Whether the kernel holds memory of this channel now: for tests. Event loop only. */
    boolean hasOperationsInFlight() {
        return receiving != null || batch.submitted > 0;
    }

    /** Whether the native blocks are allocated: for tests. Event loop only. */
    boolean hasNativeBlocks() {
        return blocks != null;
    }

    // ---------------------------------------------------------------- completions

    @Override
    void completed(IoUringIoEvent event, boolean current) {
        if (event.opcode() == IoUringIoOps.OP_RECVMSG) {
            ByteBuf buf = receiving;
            receiving = null;
            if (current && isOpen()) {
                received(buf, event.res());
            } else {
                buf.release();
            }
        } else if (event.opcode() == IoUringIoOps.OP_SENDMSG) {
            batch.completed(event.data() - 1, event.res(), current && isOpen());
        }
        freeBlocksWhenIdle();
    }

    // ---------------------------------------------------------------- reading

    @Override
    void startInput() {
        if (receiving != null || !isActive()) {
            return;
        }
        RecvByteBufAllocator.Handle handle = recvBufAllocHandle();
        handle.reset(config);
        ByteBuf buf = handle.allocate(config.getAllocator());
        if (!buf.isDirect()) {
            // recvmsg needs native memory; a heap allocator's buffer would need a copy per datagram.
            int guess = buf.writableBytes();
            buf.release();
            buf = config.getAllocator().directBuffer(guess);
        }
        submitReceive(buf);
    }

    /** Lends {@code buf}'s writable bytes to a receive; on failure releases it and closes the channel. */
    private void submitReceive(ByteBuf buf) {
        try {
            int writable = buf.writableBytes();
            long block = block(RECEIVE);
            IoUringDatagramNative.prepareReceive(block,
                    DatagramChannels.memoryAddress(buf, buf.writerIndex(), writable), writable);
            submit(new IoUringIoOps(IoUringIoOps.OP_RECVMSG, (byte) 0, (short) 0, socket.intValue(), 0, block, 1,
                    IoUringDatagramNative.MSG_TRUNC, (short) 0, 0, 0, RECEIVE));
        } catch (Throwable t) {
            buf.release();
            close(voidPromise());
            return;
        }
        receiving = buf;
    }

    private void received(ByteBuf buf, int res) {
        if (res == -Native.ECANCELED) {
            buf.release();
            return;
        }
        ChannelPipeline pipeline = pipeline();
        RecvByteBufAllocator.Handle handle = recvBufAllocHandle();
        if (res < 0) {
            buf.release();
            IOException failure = res == -Errors.ECONNREFUSED ? DatagramChannels.portUnreachable("recvmsg", res)
                    : Errors.newIoException("recvmsg", res);
            handle.readComplete();
            pipeline.fireChannelReadComplete();
            pipeline.fireExceptionCaught(failure);
            if (failure instanceof PortUnreachableException) {
                // An ICMP error is reported in place of a datagram: the ones queued behind it still wait.
                continueInput();
            } else {
                close(voidPromise());
            }
            return;
        }
        DatagramSlots slots = DatagramSlots.current();
        IoUringDatagramNative.received(block(RECEIVE), slots.address(), res);
        InetSocketAddress sender = slots.peer(0);
        int capacity = buf.writableBytes();
        if (slots.truncated(0)) {
            // The buffer holds the first bytes only: it serves the next receive, and the drop is reported.
            pipeline.fireExceptionCaught(new TruncatedDatagramException(sender, slots.length(0), capacity));
            if (isOpen() && wantsInput() && receiving == null) {
                submitReceive(buf);
            } else {
                buf.release();
            }
            return;
        }
        buf.writerIndex(buf.writerIndex() + res);
        handle.lastBytesRead(res);
        handle.incMessagesRead(1);
        readServed();
        pipeline.fireChannelRead(new DatagramPacket(buf, localAddress(), sender));
        handle.readComplete();
        pipeline.fireChannelReadComplete();
        continueInput();
    }

    private void continueInput() {
        if (isOpen() && wantsInput()) {
            startInput();
        }
    }

    // ---------------------------------------------------------------- writing

    @Override
    protected boolean isWritePending() {
        return batch.submitted > 0;
    }

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        SendBatch batch = this.batch;
        for (;;) {
            if (in.current() == null) {
                return;
            }
            batch.collect(in, DatagramSlots.current(), connected);
            if (batch.count > 0) {
                batch.submitAll();
                return;
            }
            Throwable failure = batch.takeHeadFailure();
            if (failure != null) {
                // The head cannot be sent at all: a plain buffer while not connected, or a peer the socket cannot
                // reach.
                in.remove(failure);
            } else {
                // Every flushed entry was cancelled before the flush: they only leave.
                in.remove();
            }
        }
    }

    /**
     * The datagrams of one flush in flight: which messages they are (to remove them from the outbound buffer in
     * order, skipping entries cancelled meanwhile, which {@link ChannelOutboundBuffer#forEachFlushedMessage} does
     * not show), their retained content and their results. Event loop only.
     */
    private final class SendBatch implements ChannelOutboundBuffer.MessageProcessor {
        private final Object[] messages = new Object[MAX_SENDS_IN_FLIGHT];
        private final ByteBuf[] contents = new ByteBuf[MAX_SENDS_IN_FLIGHT];
        private final int[] results = new int[MAX_SENDS_IN_FLIGHT];
        private DatagramSlots slots;
        private boolean connected;
        private Throwable headFailure;
        // Prepared; submitted (the kernel holds their blocks and contents); completed of those submitted.
        int count;
        int submitted;
        private int completedCount;

        /** Prepares the blocks of the flushed datagrams at the head of {@code in}, up to the batch's size. */
        void collect(ChannelOutboundBuffer in, DatagramSlots slots, boolean connected) throws Exception {
            this.slots = slots;
            this.connected = connected;
            count = 0;
            headFailure = null;
            in.forEachFlushedMessage(this);
            this.slots = null;
        }

        @Override
        public boolean processMessage(Object msg) {
            if (count == MAX_SENDS_IN_FLIGHT) {
                return false;
            }
            ByteBuf content;
            InetSocketAddress recipient;
            if (msg instanceof DatagramPacket packet) {
                content = packet.content();
                recipient = packet.recipient();
            } else if (msg instanceof ByteBuf buf && connected) {
                content = buf;
                recipient = null;
            } else {
                if (count == 0) {
                    headFailure = new NotYetConnectedException();
                }
                return false;
            }
            int length = content.readableBytes();
            slots.buffer(0, DatagramChannels.memoryAddress(content, content.readerIndex(), length), length);
            if (recipient != null) {
                slots.peer(0, recipient);
            }
            int res = IoUringDatagramNative.prepareSend(block(count + 1), slots.address(), socket.isIPv6());
            if (res < 0) {
                if (count == 0) {
                    headFailure = Errors.newIoException("sendmsg", res);
                }
                return false;
            }
            messages[count++] = msg;
            return true;
        }

        Throwable takeHeadFailure() {
            Throwable failure = headFailure;
            headFailure = null;
            return failure;
        }

        /** Submits the prepared sends, linked in order; each retains its content until its completion. */
        void submitAll() throws IOException {
            int n = count;
            try {
                for (int i = 0; i < n; i++) {
                    Object msg = messages[i];
                    ByteBuf content = msg instanceof DatagramPacket packet ? packet.content() : (ByteBuf) msg;
                    byte flags = i < n - 1 ? IOSQE_IO_LINK : 0;
                    submit(new IoUringIoOps(IoUringIoOps.OP_SENDMSG, flags, (short) 0, socket.intValue(), 0,
                            block(i + 1), 1, 0, (short) 0, 0, 0, (short) (i + 1)));
                    contents[i] = content.retain();
                    submitted++;
                }
            } finally {
                if (submitted < n) {
                    // Not registered any more: the ones submitted complete through the cancellation.
                    Arrays.fill(messages, submitted, n, null);
                }
            }
        }

        /** Send {@code index} completed with {@code res}; once all did, settles the batch and writes on. */
        void completed(int index, int res, boolean current) {
            results[index] = res;
            if (++completedCount < submitted) {
                return;
            }
            int n = submitted;
            ChannelOutboundBuffer in = current ? outboundBuffer() : null;
            boolean settling = in != null;
            for (int i = 0; i < n; i++) {
                Object msg = messages[i];
                messages[i] = null;
                ByteBuf content = contents[i];
                contents[i] = null;
                int result = results[i];
                if (settling) {
                    if (result == -Native.ECANCELED) {
                        // A send before it failed and broke the chain: this one and the rest go out again.
                        settling = false;
                    } else {
                        skipCancelled(in, msg);
                        if (result >= 0) {
                            in.remove();
                        } else {
                            // One datagram's problem (no route, too long, port unreachable): its write fails.
                            in.remove(result == -Errors.ECONNREFUSED
                                    ? DatagramChannels.portUnreachable("sendmsg", result)
                                    : Errors.newIoException("sendmsg", result));
                        }
                    }
                }
                // Ours, taken at submission: the outbound buffer's entry may have been released meanwhile.
                content.release();
            }
            submitted = 0;
            completedCount = 0;
            count = 0;
            if (current) {
                writeFlushed();
            }
        }

        private void skipCancelled(ChannelOutboundBuffer in, Object msg) {
            while (in.current() != msg && in.current() != null) {
                in.remove();
            }
        }
    }

    // ---------------------------------------------------------------- multicast

    /**
     * Joins multicast group {@code group} on the interface of {@link ChannelOption#IP_MULTICAST_IF}, else the
     * interface of the channel's local address, else the one the routing table picks for the group.
     */
    public ChannelFuture joinGroup(InetAddress group) {
        return joinGroup(group, null, null, newPromise());
    }

    /** Joins multicast group {@code group} on {@code networkInterface}. */
    public ChannelFuture joinGroup(InetAddress group, NetworkInterface networkInterface) {
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
    public ChannelFuture joinGroup(InetAddress group, NetworkInterface networkInterface, InetAddress source,
                                   ChannelPromise promise) {
        return memberships.join(group, networkInterface, source, promise);
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
        return memberships.leave(group, networkInterface, source, promise);
    }
}
