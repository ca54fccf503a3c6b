package io.weir.channel.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOption;
import io.weir.channel.DatagramPacket;
import io.weir.channel.EventLoop;
import io.weir.channel.FixedRecvByteBufAllocator;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.unix.NativeIoException;
import io.weir.channel.unix.TruncatedDatagramException;
import io.weir.util.platform.PlatformInfo;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.StandardProtocolFamily;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What is particular to UDP over io_uring, against JDK datagram sockets as peers: the memory a receive or a send
 * lends the kernel when the channel closes, truncation, linked batches of sends, and failures that belong to one
 * datagram. The scenarios every transport passes run over io_uring in the testsuite
 * ({@code IoUringDatagramTransportTest}).
 */
class IoUringDatagramChannelTest {
    private static final long TIMEOUT_SECONDS = 10;
    private static final int TIMEOUT_MILLIS = 10_000;
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private final List<Channel> channels = new ArrayList<>();
    private MultiThreadIoEventLoopGroup group;
    private EventLoop loop;

    @BeforeAll
    static void loadNatives() {
        assumeTrue(PlatformInfo.isLinux(), "io_uring exists only on Linux");
        IoUring.ensureAvailability();
    }

    @BeforeEach
    void start() {
        group = new MultiThreadIoEventLoopGroup(1, IoUringIoHandler.newFactory());
        loop = group.next();
    }

    @AfterEach
    void stop() throws Exception {
        for (Channel channel : channels) {
            channel.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        shutDown();
    }

    private void shutDown() throws InterruptedException {
        assertThat(group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isTrue();
    }

    /** Queues the packets (as text) and the exceptions it sees. */
    private static final class Inbox implements ChannelHandler {
        final BlockingQueue<String> packets = new LinkedBlockingQueue<>();
        final BlockingQueue<Throwable> exceptions = new LinkedBlockingQueue<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            try {
                packets.add(packet.content().toString(StandardCharsets.US_ASCII) + " from " + packet.sender());
            } finally {
                packet.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            exceptions.add(cause);
        }
    }

    private IoUringDatagramChannel bound(IoUringDatagramChannel ch, ChannelHandler handler) throws Exception {
        channels.add(ch);
        ch.pipeline().addLast(handler);
        ch.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        ch.bind(LOOPBACK).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return ch;
    }

    private IoUringDatagramChannel bound(ChannelHandler handler) throws Exception {
        return bound(new IoUringDatagramChannel(loop, StandardProtocolFamily.INET), handler);
    }

    private static void send(DatagramSocket from, byte[] bytes, InetSocketAddress to) throws Exception {
        from.send(new java.net.DatagramPacket(bytes, bytes.length, to));
    }

    private static String receive(DatagramSocket socket) throws Exception {
        byte[] bytes = new byte[2048];
        java.net.DatagramPacket packet = new java.net.DatagramPacket(bytes, bytes.length);
        socket.receive(packet);
        return new String(bytes, 0, packet.getLength(), StandardCharsets.US_ASCII);
    }

    private static DatagramPacket text(String s, InetSocketAddress to) {
        return new DatagramPacket(Unpooled.copiedBuffer(s, StandardCharsets.US_ASCII), to);
    }

    @Test
    void oversizedDatagramsAreDroppedWholeNeverDeliveredTruncated() throws Exception {
        Inbox inbox = new Inbox();
        IoUringDatagramChannel ch = new IoUringDatagramChannel(loop, StandardProtocolFamily.INET);
        ch.config().setRecvByteBufAllocator(new FixedRecvByteBufAllocator(64));
        bound(ch, inbox);
        try (DatagramSocket peer = new DatagramSocket(LOOPBACK)) {
            InetSocketAddress peerAddress = (InetSocketAddress) peer.getLocalSocketAddress();
            for (int i = 0; i < 20; i++) {
                send(peer, new byte[100 + i], ch.localAddress());
            }
            send(peer, "fits".getBytes(StandardCharsets.US_ASCII), ch.localAddress());

            for (int i = 0; i < 20; i++) {
                Throwable cause = inbox.exceptions.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                assertThat(cause).isInstanceOf(TruncatedDatagramException.class);
                TruncatedDatagramException truncated = (TruncatedDatagramException) cause;
                assertThat(truncated.datagramBytes()).isEqualTo(100 + i);
                assertThat(truncated.bufferBytes()).isEqualTo(64);
                assertThat(truncated.sender()).isEqualTo(peerAddress);
            }
            assertThat(inbox.packets.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("fits from " + peerAddress);
            assertThat(inbox.packets).isEmpty();
            assertThat(ch.isOpen()).isTrue();
        }
    }

    @Test
    void aHundredDatagramsFlushedAtOnceGoOutInLinkedBatchesInOrder() throws Exception {
        IoUringDatagramChannel ch = bound(new Inbox());
        try (DatagramSocket peer = new DatagramSocket(LOOPBACK)) {
            peer.setSoTimeout(TIMEOUT_MILLIS);
            peer.setReceiveBufferSize(1 << 20);
            InetSocketAddress to = (InetSocketAddress) peer.getLocalSocketAddress();
            int count = 100;
            List<ChannelFuture> writes = loop.submit(() -> {
                List<ChannelFuture> futures = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    futures.add(ch.write(text("datagram " + i, to)));
                }
                ch.flush();
                return futures;
            }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            for (int i = 0; i < count; i++) {
                assertThat(receive(peer)).isEqualTo("datagram " + i);
            }
            for (ChannelFuture write : writes) {
                assertThat(write.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                assertThat(write.cause()).isNull();
            }
        }
    }

    @Test
    void aDatagramTheSocketCannotAddressFailsOnlyItsOwnWrite() throws Exception {
        IoUringDatagramChannel ch = bound(new Inbox());
        try (DatagramSocket peer = new DatagramSocket(LOOPBACK)) {
            peer.setSoTimeout(TIMEOUT_MILLIS);
            InetSocketAddress to = (InetSocketAddress) peer.getLocalSocketAddress();
            ByteBuf content = Unpooled.copiedBuffer("to v6", StandardCharsets.US_ASCII);
            // An IPv4-only socket cannot send to an IPv6 address.
            ChannelFuture v6 = ch.write(new DatagramPacket(content, new InetSocketAddress("::1", to.getPort())));
            ChannelFuture v4 = ch.writeAndFlush(text("to v4", to));

            assertThat(v6.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(v6.cause()).isInstanceOf(NativeIoException.class);
            assertThat(content.refCnt()).as("released").isZero();
            assertThat(v4.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(v4.cause()).isNull();
            assertThat(receive(peer)).isEqualTo("to v4");
            assertThat(ch.isOpen()).isTrue();
        }
    }

    @Test
    void anIcmpPortUnreachableIsReportedAndTheChannelStaysOpen() throws Exception {
        Inbox inbox = new Inbox();
        IoUringDatagramChannel ch = bound(inbox);
        InetSocketAddress closedPort;
        try (DatagramSocket gone = new DatagramSocket(LOOPBACK)) {
            closedPort = (InetSocketAddress) gone.getLocalSocketAddress();
        }
        ch.connect(closedPort).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        ChannelFuture first = ch.writeAndFlush(Unpooled.copiedBuffer("anyone?", StandardCharsets.US_ASCII));
        assertThat(first.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        // The ICMP answer ends the receive in flight (or fails the next send): either way it is a typed report.
        Throwable reported = first.cause() != null ? first.cause()
                : inbox.exceptions.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(reported).isInstanceOf(PortUnreachableException.class);
        assertThat(ch.isOpen()).isTrue();
        assertThat(ch.isConnected()).isTrue();
    }

    /**
     * A close while the kernel holds a receive and sends: the native blocks (msghdr, iovec, address) and the
     * buffers stay allocated until the cancelled operations complete, and are freed after (PARANOID leak detection
     * reports any buffer that is not). Datagrams keep arriving meanwhile, so completions race the close.
     */
    @Test
    void closingWithRecvmsgAndSendmsgInFlightFreesTheirMemoryOnlyAfterTheCompletions() throws Exception {
        int rounds = 20;
        List<IoUringDatagramChannel> closed = new ArrayList<>();
        List<ByteBuf> sentContents = new ArrayList<>();
        try (DatagramSocket peer = new DatagramSocket(LOOPBACK)) {
            for (int round = 0; round < rounds; round++) {
                IoUringDatagramChannel ch = bound(new Inbox());
                closed.add(ch);
                InetSocketAddress target = (InetSocketAddress) peer.getLocalSocketAddress();
                send(peer, new byte[] {(byte) round}, ch.localAddress());
                boolean[] heldAtClose = loop.submit(() -> {
                    ByteBuf content = Unpooled.directBuffer(16).writeLong(7);
                    sentContents.add(content);
                    ch.writeAndFlush(new DatagramPacket(content.retain(), target));
                    boolean inFlight = ch.hasOperationsInFlight();
                    ch.close();
                    // The socket is closed, the operations are only asked to cancel: their memory is still lent.
                    return new boolean[] {inFlight, ch.hasOperationsInFlight(), ch.hasNativeBlocks()};
                }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                assertThat(heldAtClose).as("round %d: in flight before, after the close; blocks kept", round)
                        .containsExactly(true, true, true);
                assertThat(ch.isOpen()).isFalse();
            }
        }
        // The loop's shutdown drains every completion: then nothing may be held any more.
        channels.clear();
        shutDown();
        for (IoUringDatagramChannel ch : closed) {
            assertThat(ch.hasOperationsInFlight()).isFalse();
            assertThat(ch.hasNativeBlocks()).isFalse();
        }
        for (ByteBuf content : sentContents) {
            assertThat(content.refCnt()).as("our reference only: the channel released its own").isEqualTo(1);
            content.release();
        }
    }
}
