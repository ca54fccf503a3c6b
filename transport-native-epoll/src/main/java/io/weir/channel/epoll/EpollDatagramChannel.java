package io.weir.channel.epoll;

import static io.weir.channel.epoll.NativeDatagram.MAX_MESSAGES_PER_SYSCALL;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
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
import io.weir.channel.unix.internal.AbstractUnixDatagramChannel;
import io.weir.channel.unix.internal.DatagramChannels;
import io.weir.channel.unix.internal.DatagramSlots;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.ProtocolFamily;
import java.net.StandardProtocolFamily;
import java.nio.channels.NotYetConnectedException;
import java.nio.channels.UnresolvedAddressException;
import java.util.Arrays;
import java.util.Objects;

/**
 * A UDP socket over the Linux epoll transport: the drop-in counterpart of {@code NioDatagramChannel} on loops of
 * {@code new MultiThreadIoEventLoopGroup(n, EpollIoHandler.newFactory())}, with the same API. Reads arrive as
 * {@link DatagramPacket}s (sender and local address filled in, content a direct buffer the handler owns); writes
 * take {@link DatagramPacket}s, or plain {@link ByteBuf}s once the channel is {@linkplain #connect connected}.
 * Heap (or multi-component) content is copied once into a direct buffer as it is written.
 *
 * <p><b>Batched I/O.</b> One read readiness receives up to
 * {@link ChannelOption#MAX_MESSAGES_PER_READ} datagrams (16 by default) with as few {@code recvmmsg(2)} calls
 * as possible (64 at most per call), each into its own pooled
 * direct buffer of the {@link ChannelOption#RCVBUF_ALLOCATOR}'s size ({@value #DEFAULT_RECEIVE_BUFFER_BYTES} bytes
 * by default, a {@link FixedRecvByteBufAllocator}). Buffers a call did not fill stay with the channel for the next
 * read (so at most one batch of them, released when the channel closes), and a batch of one uses
 * {@code recvfrom(2)}. A flush sends the flushed datagrams with {@code sendmmsg(2)}, up to
 * 64 per call and {@link ChannelOption#WRITE_SPIN_COUNT} calls per
 * flush, a single one with {@code sendto(2)}; datagrams the socket buffer could not take stay queued until
 * {@code EPOLLOUT}. Reading is edge-triggered: a read that stopped at the message limit comes back as a task.
 *
 * <p><b>Truncated datagrams are dropped, not delivered.</b> A datagram larger than its receive buffer is cut by the
 * kernel; this channel asks the kernel for each datagram's real length, drops such a datagram and fires a
 * {@link TruncatedDatagramException} (the channel stays open). This is a safety improvement over
 * {@code NioDatagramChannel}, which cannot tell (the JDK silently hands over the first bytes), so a protocol
 * parser never sees half a message.
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
 * bound and active if it was bound explicitly.
 *
 * <p>Options (besides those of every channel), read from and written to the socket:
 * {@link ChannelOption#SO_BROADCAST}, {@link ChannelOption#SO_RCVBUF}, {@link ChannelOption#SO_SNDBUF},
 * {@link ChannelOption#SO_REUSEADDR}, {@link ChannelOption#IP_TOS}, {@link ChannelOption#IP_MULTICAST_IF},
 * {@link ChannelOption#IP_MULTICAST_TTL}, {@link ChannelOption#IP_MULTICAST_LOOP_DISABLED}, and
 * {@link EpollChannelOption#SO_REUSEPORT} (several sockets on one port, datagrams spread across them). A failure
 * to read or set one is a {@link ChannelException}. Multicast groups are joined and left with {@link #joinGroup}
 * and {@link #leaveGroup}, whose futures complete on the event loop.
 *
 * <p>Thread-safe as every channel.
 */
public final class EpollDatagramChannel extends AbstractUnixDatagramChannel {
    /** Default size of the buffer each datagram is received into, in bytes (as {@code NioDatagramChannel}'s). */
    public static final int DEFAULT_RECEIVE_BUFFER_BYTES = AbstractUnixDatagramChannel.DEFAULT_RECEIVE_BUFFER_BYTES;

    private final Batcher batcher = new Batcher();
    // Event loop only: receive buffers not filled yet, at the slot indexes of the next recvmmsg.
    private final ByteBuf[] spares = new ByteBuf[MAX_MESSAGES_PER_SYSCALL];

    /**
     * A new, unbound UDP socket (IPv6 dual-stack where the kernel supports it) on {@code eventLoop}.
     *
     * @throws NullPointerException if {@code eventLoop} is null
     * @throws IllegalArgumentException if {@code eventLoop} does not run an {@link EpollIoHandler}
     * @throws ChannelException if the socket cannot be opened
     * @throws UnsatisfiedLinkError if {@link Epoll#isAvailable()} is false
     */
    public EpollDatagramChannel(EventLoop eventLoop) {
        this(eventLoop, newDatagramSocket(null));
    }

    /**
     * A new, unbound UDP socket of {@code family}: {@link StandardProtocolFamily#INET} (IPv4 only) or
     * {@link StandardProtocolFamily#INET6} (dual-stack).
     *
     * @throws IllegalArgumentException if {@code family} is neither, or as {@link #EpollDatagramChannel(EventLoop)}
     * @throws ChannelException if the socket cannot be opened (for instance INET6 on a kernel without IPv6)
     */
    public EpollDatagramChannel(EventLoop eventLoop, ProtocolFamily family) {
        this(eventLoop, newDatagramSocket(Objects.requireNonNull(family, "family")));
    }

    private EpollDatagramChannel(EventLoop eventLoop, Socket socket) {
        super(eventLoop, socket, EpollChannelHandle.TRANSPORT);
    }

    private static Socket newDatagramSocket(ProtocolFamily family) {
        return EpollChannelHandle.TRANSPORT.openDatagramSocket(family);
    }

    /** The channel's socket; for tests. */
    Socket socket() {
        return socket;
    }

    @Override
    protected void releaseReceiveBuffers() {
        for (int i = 0; i < spares.length; i++) {
            ByteBuf spare = spares[i];
            if (spare != null) {
                spares[i] = null;
                spare.release();
            }
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
        int maxMessages = Math.max(1, cfg.getMaxMessagesPerRead());
        int messages = 0;
        boolean drained = false;
        Throwable failure = null;
        try {
            do {
                int batch = Math.min(MAX_MESSAGES_PER_SYSCALL, maxMessages - messages);
                prepareReceive(slots, handle, cfg.getAllocator(), batch);
                int n = NativeDatagram.recvmmsg(socket.intValue(), slots.address(), batch);
                if (n < 0) {
                    if (Errors.isAgain(n)) {
                        drained = true;
                    } else {
                        failure = ioFailure("recvmmsg", n);
                        // An ICMP error is reported in place of a datagram: the ones queued behind it still wait.
                        drained = !(failure instanceof PortUnreachableException);
                    }
                    break;
                }
                messages += n;
                handle.incMessagesRead(n);
                readServed();
                deliver(pipeline, slots, local, n);
                if (n < batch) {
                    // recvmmsg on a non-blocking socket returns early only once the queue is empty.
                    drained = true;
                    break;
                }
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

    /** Points the first {@code batch} slots at receive buffers, allocating those the last read handed out. */
    private void prepareReceive(DatagramSlots slots, RecvByteBufAllocator.Handle handle, ByteBufAllocator alloc,
                                int batch) {
        int guess = handle.guess();
        for (int i = 0; i < batch; i++) {
            ByteBuf buf = spares[i];
            if (buf != null && buf.writableBytes() != guess) {
                spares[i] = null;
                buf.release();
                buf = null;
            }
            if (buf == null) {
                buf = handle.allocate(alloc);
                if (!buf.isDirect()) {
                    // recvmmsg needs native memory; a heap allocator's buffer would need a copy per datagram.
                    buf.release();
                    buf = null;
                    buf = alloc.directBuffer(guess);
                }
                spares[i] = buf;
            }
            int writerIndex = buf.writerIndex();
            int writable = buf.writableBytes();
            slots.buffer(i, DatagramChannels.memoryAddress(buf, writerIndex, writable), writable);
        }
    }

    /** Fires the {@code n} datagrams received; a handler may close the channel meanwhile, which drops the rest. */
    private void deliver(ChannelPipeline pipeline, DatagramSlots slots, InetSocketAddress local, int n) {
        for (int i = 0; i < n; i++) {
            ByteBuf buf = spares[i];
            if (buf == null) {
                // Closed by a handler: doClose released the buffers.
                return;
            }
            int length = slots.length(i);
            InetSocketAddress sender = slots.peer(i);
            if (slots.truncated(i)) {
                // The buffer holds the first bytes only: keep it as a spare and report what was dropped.
                pipeline.fireExceptionCaught(new TruncatedDatagramException(sender, length, buf.writableBytes()));
                continue;
            }
            spares[i] = null;
            buf.writerIndex(buf.writerIndex() + length);
            pipeline.fireChannelRead(new DatagramPacket(buf, local, sender));
        }
    }


    // ---------------------------------------------------------------- writing

    @Override
    protected void doWrite(ChannelOutboundBuffer in) throws Exception {
        DatagramSlots slots = DatagramSlots.current();
        Batcher batcher = this.batcher;
        int spin = config().getWriteSpinCount();
        for (;;) {
            if (in.current() == null) {
                writeComplete();
                return;
            }
            batcher.reset(slots, connected());
            in.forEachFlushedMessage(batcher);
            int count = batcher.count;
            if (count == 0) {
                // The head cannot be sent at all: a plain buffer while not connected.
                in.remove(new NotYetConnectedException());
                continue;
            }
            int res = NativeDatagram.sendmmsg(socket.intValue(), socket.isIPv6(), slots.address(), count);
            if (res > 0) {
                batcher.removeSent(in, res);
            } else if (Errors.isAgain(res)) {
                batcher.clear();
                incompleteWrite(true);
                return;
            } else {
                // One datagram's problem (no route, too long, port unreachable): fail its write, not the channel.
                batcher.removeFailed(in, ioFailure("sendmmsg", res));
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

    /**
     * Fills the send slots with the flushed datagrams at the head of the outbound buffer and remembers which
     * messages they were, so that removing them afterwards skips entries cancelled meanwhile (which
     * {@link ChannelOutboundBuffer#forEachFlushedMessage} does not show). Event loop only.
     */
    private static final class Batcher implements ChannelOutboundBuffer.MessageProcessor {
        private final Object[] messages = new Object[MAX_MESSAGES_PER_SYSCALL];
        private DatagramSlots slots;
        private boolean connected;
        int count;

        void reset(DatagramSlots slots, boolean connected) {
            this.slots = slots;
            this.connected = connected;
            count = 0;
        }

        @Override
        public boolean processMessage(Object msg) {
            if (count == MAX_MESSAGES_PER_SYSCALL) {
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
                return false;
            }
            int length = content.readableBytes();
            slots.buffer(count, DatagramChannels.memoryAddress(content, content.readerIndex(), length), length);
            if (recipient != null) {
                slots.peer(count, recipient);
            }
            messages[count++] = msg;
            return true;
        }

        void removeSent(ChannelOutboundBuffer in, int sent) {
            for (int i = 0; i < sent; i++) {
                skipCancelled(in, messages[i]);
                in.remove();
            }
            clear();
        }

        void removeFailed(ChannelOutboundBuffer in, Throwable cause) {
            skipCancelled(in, messages[0]);
            in.remove(cause);
            clear();
        }

        private static void skipCancelled(ChannelOutboundBuffer in, Object msg) {
            while (in.current() != msg && in.current() != null) {
                in.remove();
            }
        }

        void clear() {
            Arrays.fill(messages, 0, count, null);
            count = 0;
        }
    }
}
