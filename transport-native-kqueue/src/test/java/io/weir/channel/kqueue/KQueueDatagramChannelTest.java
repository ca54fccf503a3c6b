package io.weir.channel.kqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOption;
import io.weir.channel.DatagramPacket;
import io.weir.channel.FixedRecvByteBufAllocator;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.unix.TruncatedDatagramException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.NotYetConnectedException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the transport scenarios do not show of {@link KQueueDatagramChannel}: an oversized datagram dropped with a
 * typed exception, a connected channel filtering its peer and staying bound after a disconnect, reading past the
 * per-read message limit, and SO_REUSEPORT. The peers are JDK sockets.
 */
class KQueueDatagramChannelTest {
    private static final long TIMEOUT_SECONDS = 30;
    private static final int TIMEOUT_MILLIS = 30_000;

    private MultiThreadIoEventLoopGroup group;

    @BeforeAll
    static void requireKQueue() {
        assumeTrue(KQueue.isAvailable(), () -> "kqueue unavailable, so not tested: " + KQueue.unavailabilityCause());
    }

    @BeforeEach
    void startGroup() {
        group = new MultiThreadIoEventLoopGroup(1, KQueueIoHandler.newFactory());
    }

    @AfterEach
    void stopGroup() throws Exception {
        assertThat(group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isTrue();
    }

    /** Records each datagram as "text from port" and each exception as "exception Name". */
    private static final class Recorder implements ChannelHandler {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();
        final BlockingQueue<Throwable> exceptions = new LinkedBlockingQueue<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            try {
                events.add(packet.content().toString(StandardCharsets.US_ASCII) + " from "
                        + packet.sender().getPort());
            } finally {
                packet.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            exceptions.add(cause);
            events.add("exception " + cause.getClass().getSimpleName());
        }

        String next() throws InterruptedException {
            String event = events.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(event).as("an event within %d s", TIMEOUT_SECONDS).isNotNull();
            return event;
        }
    }

    private KQueueDatagramChannel bound(Recorder recorder) throws Exception {
        KQueueDatagramChannel ch = new KQueueDatagramChannel(group.next());
        ch.pipeline().addLast(recorder);
        ch.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        ch.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return ch;
    }

    private static DatagramSocket jdkSocket() throws Exception {
        DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        socket.setSoTimeout(TIMEOUT_MILLIS);
        return socket;
    }

    private static void send(DatagramSocket from, SocketAddress to, byte[] bytes) throws Exception {
        from.send(new java.net.DatagramPacket(bytes, bytes.length, to));
    }

    private static void send(DatagramSocket from, SocketAddress to, String text) throws Exception {
        send(from, to, text.getBytes(StandardCharsets.US_ASCII));
    }

    private static String receive(DatagramSocket socket) throws Exception {
        java.net.DatagramPacket packet = new java.net.DatagramPacket(new byte[2048], 2048);
        socket.receive(packet);
        return new String(packet.getData(), 0, packet.getLength(), StandardCharsets.US_ASCII);
    }

    private static ByteBuf text(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.US_ASCII);
    }

    @Test
    void anOversizedDatagramIsDroppedWithATypedExceptionNotDeliveredCutShort() throws Exception {
        Recorder recorder = new Recorder();
        int bufferBytes = 64;
        KQueueDatagramChannel ch = bound(recorder);
        ch.config().setRecvByteBufAllocator(new FixedRecvByteBufAllocator(bufferBytes));
        try (DatagramSocket sender = jdkSocket()) {
            int port = sender.getLocalPort();
            send(sender, ch.localAddress(), "before");
            send(sender, ch.localAddress(), new byte[bufferBytes + 36]);
            send(sender, ch.localAddress(), "after");
            assertThat(recorder.next()).isEqualTo("before from " + port);
            assertThat(recorder.next()).isEqualTo("exception TruncatedDatagramException");
            assertThat(recorder.next()).isEqualTo("after from " + port);
            TruncatedDatagramException e = (TruncatedDatagramException) recorder.exceptions.poll();
            // Linux (libkqueue) reports the real length; a BSD kernel only that it did not fit.
            assertThat(e.datagramBytes()).isIn(bufferBytes + 36, TruncatedDatagramException.UNKNOWN_LENGTH);
            assertThat(e.bufferBytes()).isEqualTo(bufferBytes);
            assertThat(e.sender()).isEqualTo(sender.getLocalSocketAddress());
            assertThat(ch.isOpen()).isTrue();
        } finally {
            ch.close().sync();
        }
    }

    @Test
    void aBurstTwiceTheReadLimitArrivesWholeAndInOrder() throws Exception {
        Recorder recorder = new Recorder();
        KQueueDatagramChannel ch = bound(recorder);
        ch.config().setOption(ChannelOption.MAX_MESSAGES_PER_READ, 4);
        int count = 8;
        try (DatagramSocket sender = jdkSocket()) {
            for (int i = 0; i < count; i++) {
                send(sender, ch.localAddress(), "d" + i);
            }
            for (int i = 0; i < count; i++) {
                assertThat(recorder.next()).isEqualTo("d" + i + " from " + sender.getLocalPort());
            }
        } finally {
            ch.close().sync();
        }
    }

    @Test
    void aConnectedChannelHearsOnlyItsPeerAndStaysBoundAfterDisconnecting() throws Exception {
        Recorder recorder = new Recorder();
        KQueueDatagramChannel ch = bound(recorder);
        try (DatagramSocket peer = jdkSocket(); DatagramSocket stranger = jdkSocket()) {
            int localPort = ch.localAddress().getPort();
            ch.connect(peer.getLocalSocketAddress()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(ch.isConnected()).isTrue();
            assertThat(ch.remoteAddress()).isEqualTo(peer.getLocalSocketAddress());

            send(stranger, ch.localAddress(), "from a stranger");
            send(peer, ch.localAddress(), "from the peer");
            assertThat(recorder.next()).isEqualTo("from the peer from " + peer.getLocalPort());

            ch.writeAndFlush(text("plain")).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(receive(peer)).isEqualTo("plain");

            ch.disconnect().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(ch.isConnected()).isFalse();
            assertThat(ch.isActive()).isTrue();
            assertThat(ch.localAddress().getPort()).isEqualTo(localPort);
            ChannelFuture plain = ch.writeAndFlush(text("nowhere"));
            assertThat(plain.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(plain.cause()).isInstanceOf(NotYetConnectedException.class);

            InetSocketAddress strangerAddress = (InetSocketAddress) stranger.getLocalSocketAddress();
            ch.writeAndFlush(new DatagramPacket(text("addressed"), strangerAddress))
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(receive(stranger)).isEqualTo("addressed");
        } finally {
            ch.close().sync();
        }
    }

    @Test
    void reusePortLetsTwoChannelsBindOnePort() throws Exception {
        KQueueDatagramChannel first = new KQueueDatagramChannel(group.next());
        KQueueDatagramChannel second = new KQueueDatagramChannel(group.next());
        try {
            first.config().setOption(KQueueChannelOption.SO_REUSEPORT, true);
            second.config().setOption(KQueueChannelOption.SO_REUSEPORT, true);
            assertThat(first.config().getOption(KQueueChannelOption.SO_REUSEPORT)).isTrue();
            first.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            second.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            first.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            second.bind(first.localAddress()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(second.localAddress()).isEqualTo(first.localAddress());
        } finally {
            first.close().sync();
            second.close().sync();
        }
    }
}
