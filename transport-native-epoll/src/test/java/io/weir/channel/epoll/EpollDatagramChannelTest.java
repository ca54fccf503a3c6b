package io.weir.channel.epoll;

import static io.weir.channel.epoll.EpollChannels.LOOPBACK;
import static io.weir.channel.epoll.EpollChannels.TIMEOUT_SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOption;
import io.weir.channel.DatagramPacket;
import io.weir.channel.FixedRecvByteBufAllocator;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.StandardProtocolFamily;
import java.nio.channels.NotYetConnectedException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** What only the epoll datagram channel does: recvmmsg/sendmmsg batching, MSG_TRUNC rejection, SO_REUSEPORT. */
class EpollDatagramChannelTest extends AbstractEpollChannelTest {

    EpollDatagramChannelTest() {
        super(1);
    }

    /** Records reads (as "text from port"), read-complete marks ("|") and exceptions, in the order they happen. */
    private static final class Recorder implements ChannelHandler {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();
        final BlockingQueue<Throwable> exceptions = new LinkedBlockingQueue<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            try {
                events.add(packet.content().toString(StandardCharsets.UTF_8) + " from " + packet.sender().getPort());
            } finally {
                packet.release();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            events.add("|");
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            events.add("exception " + cause.getClass().getSimpleName());
            exceptions.add(cause);
        }

        /** The next event other than a read-complete mark. */
        String nextRead() throws InterruptedException {
            for (;;) {
                String event = events.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (event == null || !event.equals("|")) {
                    return event;
                }
            }
        }
    }

    private EpollDatagramChannel bound(ChannelHandler handler, Consumer<EpollDatagramChannel> configure)
            throws Exception {
        return bound(new EpollDatagramChannel(loop), handler, configure, LOOPBACK);
    }

    private EpollDatagramChannel bound(EpollDatagramChannel ch, ChannelHandler handler,
                                       Consumer<EpollDatagramChannel> configure, InetSocketAddress address)
            throws Exception {
        track(ch);
        configure.accept(ch);
        ch.pipeline().addLast(handler);
        ch.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        ch.bind(address).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return ch;
    }

    private static DatagramSocket jdkSocket() throws Exception {
        DatagramSocket socket = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        return socket;
    }

    private static void send(DatagramSocket from, InetSocketAddress to, byte[] data) throws Exception {
        from.send(new java.net.DatagramPacket(data, data.length, to));
    }

    private static void send(DatagramSocket from, InetSocketAddress to, String text) throws Exception {
        send(from, to, text.getBytes(StandardCharsets.UTF_8));
    }

    private static String receive(DatagramSocket socket) throws Exception {
        byte[] bytes = new byte[2048];
        java.net.DatagramPacket packet = new java.net.DatagramPacket(bytes, bytes.length);
        socket.receive(packet);
        return new String(bytes, 0, packet.getLength(), StandardCharsets.UTF_8);
    }

    private static ByteBuf text(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
    }

    @Test
    void nativeAndJavaAgreeOnTheBatchLimit() {
        assertThat(NativeDatagram.maxMessagesPerSyscall()).isEqualTo(NativeDatagram.MAX_MESSAGES_PER_SYSCALL);
    }

    @Test
    void queuedDatagramsArriveInOneReadBurstInOrder() throws Exception {
        Recorder recorder = new Recorder();
        EpollDatagramChannel ch = bound(recorder, c -> c.config().setAutoRead(false));
        int count = 10;
        try (DatagramSocket sender = jdkSocket()) {
            for (int i = 0; i < count; i++) {
                send(sender, ch.localAddress(), "d" + i);
            }
            // Loopback delivers within send(); the wait only proves the queue is not empty.
            Readiness.awaitReadable(ch.socket());
            ch.read();
            int port = sender.getLocalPort();
            for (int i = 0; i < count; i++) {
                assertThat(recorder.events.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("d" + i + " from " + port);
            }
            assertThat(recorder.events.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("one burst, then complete")
                    .isEqualTo("|");
        }
    }

    @Test
    void manyDatagramsFlushedAtOnceAllArriveInOrder() throws Exception {
        EpollDatagramChannel ch = bound(new Recorder(), c -> { });
        // More than one sendmmsg batch; few enough for the receiver's default socket buffer.
        int count = NativeDatagram.MAX_MESSAGES_PER_SYSCALL * 2 + 5;
        try (DatagramSocket receiver = jdkSocket()) {
            InetSocketAddress target = (InetSocketAddress) receiver.getLocalSocketAddress();
            List<ChannelFuture> writes = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                writes.add(ch.write(new DatagramPacket(text("m" + i), target)));
            }
            ch.flush();
            for (ChannelFuture write : writes) {
                assertThat(write.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                assertThat(write.cause()).isNull();
            }
            for (int i = 0; i < count; i++) {
                assertThat(receive(receiver)).isEqualTo("m" + i);
            }
        }
    }

    @Test
    void aDatagramLargerThanTheReceiveBufferIsDroppedWithAnExceptionNotDeliveredTruncated() throws Exception {
        Recorder recorder = new Recorder();
        int bufferBytes = 64;
        EpollDatagramChannel ch = bound(recorder, c -> c.config().setRecvByteBufAllocator(
                new FixedRecvByteBufAllocator(bufferBytes)));
        try (DatagramSocket sender = jdkSocket()) {
            int port = sender.getLocalPort();
            send(sender, ch.localAddress(), "before");
            send(sender, ch.localAddress(), new byte[bufferBytes + 36]);
            send(sender, ch.localAddress(), "after");
            assertThat(recorder.nextRead()).isEqualTo("before from " + port);
            assertThat(recorder.nextRead()).isEqualTo("exception TruncatedDatagramException");
            assertThat(recorder.nextRead()).isEqualTo("after from " + port);
            TruncatedDatagramException e = (TruncatedDatagramException) recorder.exceptions.poll();
            assertThat(e.datagramBytes()).isEqualTo(bufferBytes + 36);
            assertThat(e.bufferBytes()).isEqualTo(bufferBytes);
            assertThat(e.sender()).isEqualTo(sender.getLocalSocketAddress());
            assertThat(e.getMessage()).contains("100 bytes", "64 bytes");
            assertThat(ch.isOpen()).isTrue();
        }
    }

    @Test
    void aConnectedChannelHearsOnlyItsPeer() throws Exception {
        Recorder recorder = new Recorder();
        EpollDatagramChannel ch = bound(recorder, c -> { });
        try (DatagramSocket peer = jdkSocket(); DatagramSocket stranger = jdkSocket()) {
            ch.connect(peer.getLocalSocketAddress()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(ch.isConnected()).isTrue();
            assertThat(ch.remoteAddress()).isEqualTo(peer.getLocalSocketAddress());

            send(stranger, ch.localAddress(), "from a stranger");
            send(peer, ch.localAddress(), "from the peer");
            assertThat(recorder.nextRead()).isEqualTo("from the peer from " + peer.getLocalPort());

            ch.writeAndFlush(text("plain")).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(receive(peer)).isEqualTo("plain");

            ch.disconnect().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(ch.isConnected()).isFalse();
            assertThat(ch.isActive()).isTrue();
            ChannelFuture plain = ch.writeAndFlush(text("nowhere"));
            assertThat(plain.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(plain.cause()).isInstanceOf(NotYetConnectedException.class);
        }
    }

    @Test
    void anUnreachablePeerIsReportedWithoutClosingTheChannel() throws Exception {
        Recorder recorder = new Recorder();
        EpollDatagramChannel ch = bound(recorder, c -> { });
        InetSocketAddress closedPort;
        try (DatagramSocket gone = jdkSocket()) {
            closedPort = (InetSocketAddress) gone.getLocalSocketAddress();
        }
        ch.connect(closedPort).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        ch.writeAndFlush(text("anyone?")).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        // The ICMP answer is reported by the next read (or, if a write comes first, fails that write).
        assertThat(recorder.exceptions.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(PortUnreachableException.class);
        assertThat(ch.isOpen()).isTrue();
        assertThat(ch.isActive()).isTrue();
    }

    @Test
    void aDatagramTheSocketCannotAddressFailsAloneAndTheNextOneIsSent() throws Exception {
        EpollDatagramChannel ch = bound(new EpollDatagramChannel(loop, StandardProtocolFamily.INET), new Recorder(),
                c -> { }, LOOPBACK);
        try (DatagramSocket receiver = jdkSocket()) {
            ChannelFuture v6 = ch.write(new DatagramPacket(text("v6"), new InetSocketAddress("::1", 9)));
            ChannelFuture v4 = ch.write(new DatagramPacket(text("v4"), (InetSocketAddress) receiver.getLocalSocketAddress()));
            ch.flush();
            assertThat(v6.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(v6.cause()).isInstanceOf(io.weir.channel.unix.NativeIoException.class);
            assertThat(v4.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(v4.cause()).isNull();
            assertThat(receive(receiver)).isEqualTo("v4");
            assertThat(ch.isOpen()).isTrue();
        }
    }

    @Test
    void soReusePortLetsTwoChannelsBindOnePort() throws Exception {
        EpollDatagramChannel first = bound(new Recorder(),
                c -> c.config().setOption(EpollChannelOption.SO_REUSEPORT, true));
        assertThat(first.config().getOption(EpollChannelOption.SO_REUSEPORT)).isTrue();
        EpollDatagramChannel second = bound(new EpollDatagramChannel(loop), new Recorder(),
                c -> c.config().setOption(EpollChannelOption.SO_REUSEPORT, true), first.localAddress());
        assertThat(second.localAddress()).isEqualTo(first.localAddress());
        assertThat(second.config().getOptions()).containsEntry(EpollChannelOption.SO_REUSEPORT, true);
    }

    @Test
    void anEchoAnswersEveryDatagramOfARepeatedExchange() throws Exception {
        // The same peer over and over: the cached peer address must not leak into another peer's datagrams.
        EpollDatagramChannel echo = bound(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                DatagramPacket packet = (DatagramPacket) msg;
                ctx.writeAndFlush(new DatagramPacket(packet.content(), packet.sender()));
            }
        }, c -> { });
        try (DatagramSocket a = jdkSocket(); DatagramSocket b = jdkSocket()) {
            for (int i = 0; i < 20; i++) {
                DatagramSocket from = i % 3 == 0 ? b : a;
                send(from, echo.localAddress(), "ping " + i);
                assertThat(receive(from)).isEqualTo("ping " + i);
            }
        }
    }

    @Test
    void aChannelBoundOnlyByItsConnectKeepsItsPortAfterDisconnect() throws Exception {
        EpollDatagramChannel ch = new EpollDatagramChannel(loop);
        track(ch);
        Recorder recorder = new Recorder();
        ch.pipeline().addLast(recorder);
        ch.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        try (DatagramSocket peer = jdkSocket()) {
            ch.connect(peer.getLocalSocketAddress()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(ch.isActive()).as("bound by connect").isTrue();
            int port = ch.localAddress().getPort();
            assertThat(port).isPositive();
            // Linux drops such a socket's port on disconnect; the channel binds it again.
            ch.disconnect().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(ch.isActive()).isTrue();
            assertThat(ch.localAddress().getPort()).isEqualTo(port);
            send(peer, new InetSocketAddress(InetAddress.getLoopbackAddress(), port), "still here");
            assertThat(recorder.nextRead()).isEqualTo("still here from " + peer.getLocalPort());
        }
    }

    /** Hands out unpooled buffers and remembers each, so a test can check every one was released. */
    private static final class TrackingAllocator extends io.weir.buffer.AbstractByteBufAllocator {
        final List<ByteBuf> allocated = new CopyOnWriteArrayList<>();

        TrackingAllocator() {
            super(true);
        }

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            return track(io.weir.buffer.UnpooledByteBufAllocator.DEFAULT.heapBuffer(initialCapacity, maxCapacity));
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            return track(io.weir.buffer.UnpooledByteBufAllocator.DEFAULT.directBuffer(initialCapacity, maxCapacity));
        }

        private ByteBuf track(ByteBuf buf) {
            allocated.add(buf);
            return buf;
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }

    @Test
    void closingReleasesTheReceiveBuffersKeptForTheNextRead() throws Exception {
        TrackingAllocator alloc = new TrackingAllocator();
        Recorder recorder = new Recorder();
        EpollDatagramChannel ch = bound(recorder, c -> c.config().setAllocator(alloc));
        try (DatagramSocket sender = jdkSocket()) {
            for (int i = 0; i < 3; i++) {
                send(sender, ch.localAddress(), "r" + i);
                assertThat(recorder.nextRead()).isEqualTo("r" + i + " from " + sender.getLocalPort());
            }
        }
        assertThat(alloc.allocated).as("spare buffers beyond the three delivered").hasSizeGreaterThan(3);
        ch.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        for (ByteBuf buf : alloc.allocated) {
            assertThat(buf.refCnt()).isZero();
        }
    }

    @Test
    void aSourceSpecificMembershipDeliversFromThatSourceAndCanBeLeft() throws Exception {
        java.net.NetworkInterface loopback =
                java.net.NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
        if (loopback == null || !loopback.isUp()) {
            org.junit.jupiter.api.Assumptions.abort("no loopback interface is up on this host");
        }
        Recorder recorder = new Recorder();
        EpollDatagramChannel ch = bound(new EpollDatagramChannel(loop, StandardProtocolFamily.INET), recorder,
                c -> c.config().setOption(ChannelOption.IP_MULTICAST_IF, loopback), new InetSocketAddress(0));
        InetAddress group = InetAddress.getByName("232.1.2.3");
        ChannelFuture joined = ch.joinGroup(group, loopback, InetAddress.getLoopbackAddress(), ch.newPromise());
        assertThat(joined.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        if (joined.cause() instanceof io.weir.channel.unix.NativeIoException e && !loopback.supportsMulticast()) {
            org.junit.jupiter.api.Assumptions.abort("the loopback interface refuses multicast here: " + e.getMessage());
        }
        assertThat(joined.cause()).isNull();
        InetSocketAddress target = new InetSocketAddress(group, ch.localAddress().getPort());
        ch.writeAndFlush(new DatagramPacket(text("to the source group"), target)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(recorder.nextRead()).startsWith("to the source group from ");

        ChannelFuture wrongSource = ch.leaveGroup(group, loopback, InetAddress.getByName("127.0.0.2"), ch.newPromise());
        assertThat(wrongSource.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(wrongSource.cause()).as("not joined for that source").isInstanceOf(IllegalStateException.class);
        ch.leaveGroup(group, loopback, InetAddress.getLoopbackAddress(), ch.newPromise())
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
}
