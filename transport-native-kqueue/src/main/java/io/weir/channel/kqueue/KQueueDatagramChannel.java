package io.weir.channel.kqueue;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.ChannelPipeline;
import io.weir.channel.DatagramPacket;
import io.weir.channel.EventLoop;
import io.weir.channel.FixedRecvByteBufAllocator;
import io.weir.channel.RecvByteBufAllocator;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.Socket;
import io.weir.channel.unix.TruncatedDatagramException;
import io.weir.channel.unix.internal.AbstractUnixDatagramChannel;
import io.weir.channel.unix.internal.DatagramSlots;
import io.weir.channel.unix.internal.DatagramSocketNative;
import io.weir.channel.unix.internal.DatagramChannels;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.ProtocolFamily;
import java.net.StandardProtocolFamily;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Objects;

/**
 * A UDP socket over the kqueue transport: the counterpart of {@code NioDatagramChannel} on loops of
 * {@code new MultiThreadIoEventLoopGroup(n, KQueueIoHandler.newFactory())}, with the same API. Reads arrive as
 * {@link DatagramPacket}s (sender and local address filled in, content a direct buffer the handler owns); writes
 * take {@link DatagramPacket}s, or plain {@link ByteBuf}s once the channel is {@linkplain #connect connected}.
 * Heap (or multi-component) content is copied once into a direct buffer as it is written.
 *
 * <p><b>One datagram per system call.</b> One read readiness receives up to
 * {@link ChannelOption#MAX_MESSAGES_PER_READ} datagrams (16 by default), each with its own {@code recvmsg(2)} into
 * a pooled direct buffer of the {@link ChannelOption#RCVBUF_ALLOCATOR}'s size ({@value #DEFAULT_RECEIVE_BUFFER_BYTES}
 * bytes by default, a {@link FixedRecvByteBufAllocator}); macOS has no {@code recvmmsg}, so none is emulated. A flush
 * sends each flushed datagram with {@code sendmsg(2)}, at most {@link ChannelOption#WRITE_SPIN_COUNT} per flush
 * before the rest waits its turn as a task; datagrams the socket buffer could not take stay queued until the write
 * filter fires. Reading is edge-triggered ({@code EV_CLEAR}): a read that stopped at the message limit comes back as
 * a task.
 *
 * <p><b>Truncated datagrams are dropped, not delivered.</b> A datagram larger than its receive buffer is cut by the
 * kernel, which says so in {@code recvmsg}'s {@code MSG_TRUNC} flag; this channel drops such a datagram and fires a
 * {@link TruncatedDatagramException} (the channel stays open), so a protocol parser never sees half a message.
 *
 * <p><b>Errors.</b> Writing to an unresolved address fails that write's promise with
 * {@link UnresolvedAddressException}; a plain buffer written while not connected with
 * {@link NotYetConnectedException}; a datagram the kernel refuses (no route, too long) fails its own promise only.
 * A {@link PortUnreachableException} (an ICMP answer to an earlier send on a connected channel) is fired as an
 * exception event, or fails the write it was reported for, and does not close the channel; other read failures
 * close it.
 *
 * <p>The channel is active once bound (a connect binds an unbound socket). {@link #connect} filters what is
 * received to one peer and lets plain buffers be written; {@link #disconnect()} undoes it.
 *
 * <p>Options (besides those of every channel), read from and written to the socket:
 * {@link ChannelOption#SO_BROADCAST}, {@link ChannelOption#SO_RCVBUF}, {@link ChannelOption#SO_SNDBUF},
 * {@link ChannelOption#SO_REUSEADDR}, {@link ChannelOption#IP_TOS}, {@link ChannelOption#IP_MULTICAST_IF},
 * {@link ChannelOption#IP_MULTICAST_TTL}, {@link ChannelOption#IP_MULTICAST_LOOP_DISABLED} and
 * {@link KQueueChannelOption#SO_REUSEPORT}. A failure to read or set one is a {@link ChannelException}. Multicast
 * groups are joined and left with {@link #joinGroup} and {@link #leaveGroup}, whose futures complete on the event
 * loop.
 *
 * <p>Thread-safe as every channel.
 */
public final class KQueueDatagramChannel extends AbstractUnixDatagramChannel {
    /** Default size of the buffer each datagram is received into, in bytes (as {@code NioDatagramChannel}'s). */
    public static final int DEFAULT_RECEIVE_BUFFER_BYTES = AbstractUnixDatagramChannel.DEFAULT_RECEIVE_BUFFER_BYTES;

    // Event loop only: the receive buffer the last read did not fill.
    private ByteBuf spare;

    /**
     * A new, unbound UDP socket (IPv6 dual-stack where the kernel supports it) on {@code eventLoop}.
     *
     * @throws NullPointerException if {@code eventLoop} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run a {@link KQueueIoHandler}
     * @throws ChannelException if the socket cannot be opened
     * @throws UnsatisfiedLinkError if {@link KQueue#isAvailable()} is false
     */
    public KQueueDatagramChannel(EventLoop eventLoop) {
        this(eventLoop, newDatagramSocket(null));
    }

    /**
     * A new, unbound UDP socket of {@code family}: {@link StandardProtocolFamily#INET} (IPv4 only) or
     * {@link StandardProtocolFamily#INET6} (dual-stack).
     *
     * @throws IllegalArgumentException if {@code family} is neither, or as {@link #KQueueDatagramChannel(EventLoop)}
     * @throws ChannelException if the socket cannot be opened (for instance INET6 on a kernel without IPv6)
     */
    public KQueueDatagramChannel(EventLoop eventLoop, ProtocolFamily family) {
        this(eventLoop, newDatagramSocket(Objects.requireNonNull(family, "family")));
    }

    private KQueueDatagramChannel(EventLoop eventLoop, Socket socket) {
        super(eventLoop, socket, KQueueChannelHandle.TRANSPORT);
    }

    private static Socket newDatagramSocket(ProtocolFamily family) {
        return KQueueChannelHandle.TRANSPORT.openDatagramSocket(family);
    }

    /** The channel's socket; for tests. */
    Socket socket() {
        return socket;
    }

    @Override
    protected void releaseReceiveBuffers() {
        ByteBuf buf = spare;
        if (buf != null) {
            spare = null;
            buf.release();
        }
    }

    // ---------------------------------------------------------------- reading

    @Override
    protected void readLoop() {
        ChannelConfig cfg = config();
        ChannelPipeline pipeline = pipeline();
        RecvByteBufAllocator.Handle handle = recvBufAllocHandle();
        handle.reset(cfg);
        DatagramSlots slots = DatagramSlots.current();
        InetSocketAddress local = localAddress();
        boolean drained = false;
        Throwable failure = null;
        try {
            do {
                ByteBuf buf = receiveBuffer(handle);
                int capacity = buf.writableBytes();
                slots.buffer(0, DatagramChannels.memoryAddress(buf, buf.writerIndex(), capacity), capacity);
                int res = DatagramSocketNative.recvFrom(socket.intValue(), slots.address());
                if (res < 0) {
                    if (Errors.isAgain(res)) {
                        drained = true;
                    } else {
                        failure = ioFailure("recvmsg", res);
                    }
                    break;
                }
                handle.incMessagesRead(1);
                readServed();
                InetSocketAddress sender = slots.peer(0);
                if (slots.truncated(0)) {
                    // The buffer holds the first bytes only: keep it for the next datagram, report the dropped one.
                    int length = slots.length(0);
                    pipeline.fireExceptionCaught(new TruncatedDatagramException(sender,
                            length > capacity ? length : TruncatedDatagramException.UNKNOWN_LENGTH, capacity));
                    continue;
                }
                spare = null;
                buf.writerIndex(buf.writerIndex() + slots.length(0));
                pipeline.fireChannelRead(new DatagramPacket(buf, local, sender));
            } while (handle.continueReading() && isOpen());
        } catch (Throwable t) {
            failure = t;
            drained = true;
        }
        readLoopEnded(drained);
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

    /** The spare buffer if it still has the allocator's size, else a new direct one kept as the spare. */
    private ByteBuf receiveBuffer(RecvByteBufAllocator.Handle handle) {
        int guess = handle.guess();
        ByteBuf buf = spare;
        if (buf != null && buf.writableBytes() != guess) {
            spare = null;
            buf.release();
            buf = null;
        }
        if (buf == null) {
            buf = handle.allocate(config().getAllocator());
            if (!buf.isDirect()) {
                // recvmsg needs native memory; a heap allocator's buffer would need a copy per datagram.
                buf.release();
                buf = config().getAllocator().directBuffer(guess);
            }
            spare = buf;
        }
        return buf;
    }


    // ---------------------------------------------------------------- writing

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        DatagramSlots slots = DatagramSlots.current();
        int spin = config().getWriteSpinCount();
        for (;;) {
            Object msg = in.current();
            if (msg == null) {
                writeComplete();
                return;
            }
            ByteBuf content;
            if (msg instanceof DatagramPacket packet) {
                content = packet.content();
                slots.buffer(0, DatagramChannels.memoryAddress(content, content.readerIndex(), content.readableBytes()),
                        content.readableBytes());
                slots.peer(0, packet.recipient());
            } else if (connected()) {
                content = (ByteBuf) msg;
                slots.buffer(0, DatagramChannels.memoryAddress(content, content.readerIndex(), content.readableBytes()),
                        content.readableBytes());
            } else {
                in.remove(new NotYetConnectedException());
                continue;
            }
            int res = DatagramSocketNative.sendTo(socket.intValue(), socket.isIPv6(), slots.address());
            if (res >= 0) {
                in.remove();
            } else if (Errors.isAgain(res)) {
                incompleteWrite(true);
                return;
            } else {
                // One datagram's problem (no route, too long, port unreachable): fail its write, not the channel.
                in.remove(ioFailure("sendmsg", res));
            }
            if (--spin == 0) {
                if (in.current() == null) {
                    writeComplete();
                } else {
                    incompleteWrite(false);
                }
                return;
            }
        }
    }
}
