package io.weir.testsuite.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.Bootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOption;
import io.weir.channel.DatagramPacket;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ProtocolFamily;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * UDP scenarios written once and run over each transport that has a datagram channel: a subclass names the
 * group, the channel type and the transport's own spelling of the calls the common {@link Channel} interface
 * lacks (connected state, multicast membership). Every buffer a test allocates is released; leak detection is
 * PARANOID.
 */
abstract class AbstractDatagramScenarioTest {
    static final long TIMEOUT_SECONDS = 30;
    static final InetSocketAddress LOOPBACK_ANY_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    EventLoopGroup group;
    private final List<Channel> channels = new ArrayList<>();

    /** A group of two loops on which this transport's datagram channels can run. */
    abstract EventLoopGroup newGroup();

    /** Sets the datagram channel type on {@code b}. */
    abstract Bootstrap datagramChannel(Bootstrap b);

    /** A new datagram channel of {@code family} on {@code loop}. */
    abstract Channel newChannel(EventLoop loop, ProtocolFamily family);

    /** Whether {@code ch} is connected to one peer. */
    abstract boolean isConnected(Channel ch);

    /** Joins {@code group} on {@code iface}. */
    abstract ChannelFuture joinGroup(Channel ch, InetAddress group, NetworkInterface iface);

    /** Leaves {@code group} wherever it was joined. */
    abstract ChannelFuture leaveGroup(Channel ch, InetAddress group);

    @BeforeEach
    void start() {
        group = newGroup();
    }

    @AfterEach
    void stop() throws Exception {
        for (Channel ch : channels) {
            ch.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Sends every packet back to where it came from. */
    @ChannelHandler.Sharable
    static final class DatagramEcho implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            ctx.writeAndFlush(new DatagramPacket(packet.content(), packet.sender()));
        }
    }

    /** Queues what it reads, as text with the sender, and the exceptions it sees. */
    static final class Receiver implements ChannelHandler {
        final BlockingQueue<String> received = new LinkedBlockingQueue<>();
        final BlockingQueue<Throwable> exceptions = new LinkedBlockingQueue<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            try {
                received.add(packet.content().toString(StandardCharsets.UTF_8) + " from " + packet.sender()
                        + " to " + packet.recipient());
            } finally {
                packet.release();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            exceptions.add(cause);
        }

        String next() throws InterruptedException {
            return received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    Channel track(Channel ch) {
        channels.add(ch);
        return ch;
    }

    Channel bind(ChannelHandler handler) throws Exception {
        return bind(datagramChannel(new Bootstrap().group(group)).handler(handler), LOOPBACK_ANY_PORT);
    }

    Channel bind(Bootstrap b, InetSocketAddress address) throws Exception {
        ChannelFuture f = b.bind(address);
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isNull();
        return track(f.channel());
    }

    static void assertSucceeds(ChannelFuture f) throws InterruptedException {
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isNull();
    }

    static ByteBuf text(String s) {
        // Heap content: copied into direct memory by the channel.
        return Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
    }

    @Test
    void datagramsComeBackFromAnEchoPeer() throws Exception {
        Channel echo = bind(new DatagramEcho());
        Receiver receiver = new Receiver();
        Channel client = bind(receiver);
        InetSocketAddress echoAddress = (InetSocketAddress) echo.localAddress();
        for (int i = 0; i < 5; i++) {
            assertSucceeds(client.writeAndFlush(new DatagramPacket(text("datagram " + i), echoAddress)));
            assertThat(receiver.next()).isEqualTo("datagram " + i + " from " + echoAddress + " to " + client.localAddress());
        }
    }

    @Test
    void datagramsTravelOverIpv6Loopback() throws Exception {
        InetAddress v6Loopback = InetAddress.getByName("::1");
        try (java.net.DatagramSocket probe = new java.net.DatagramSocket(new InetSocketAddress(v6Loopback, 0))) {
            assertThat(probe.getLocalPort()).isPositive();
        } catch (SocketException e) {
            Assumptions.abort("no ::1 on this host: " + e.getMessage());
        }
        InetSocketAddress any = new InetSocketAddress(v6Loopback, 0);
        Channel echo = bind(datagramChannel(new Bootstrap().group(group)).handler(new DatagramEcho()), any);
        Receiver receiver = new Receiver();
        Channel client = bind(datagramChannel(new Bootstrap().group(group)).handler(receiver), any);
        InetSocketAddress echoAddress = (InetSocketAddress) echo.localAddress();
        assertThat(echoAddress.getAddress()).isEqualTo(v6Loopback);
        assertSucceeds(client.writeAndFlush(new DatagramPacket(text("over v6"), echoAddress)));
        assertThat(receiver.next()).isEqualTo("over v6 from " + echoAddress + " to " + client.localAddress());
    }

    @Test
    void aBurstLargerThanTheReadLimitIsDeliveredWholeAndInOrder() throws Exception {
        Receiver receiver = new Receiver();
        Channel server = bind(datagramChannel(new Bootstrap().group(group))
                .option(ChannelOption.MAX_MESSAGES_PER_READ, 2).handler(receiver), LOOPBACK_ANY_PORT);
        Channel client = bind(new Receiver());
        InetSocketAddress target = (InetSocketAddress) server.localAddress();
        int count = 40;
        ChannelFuture last = null;
        for (int i = 0; i < count; i++) {
            last = client.write(new DatagramPacket(text("burst " + i), target));
        }
        client.flush();
        assertSucceeds(last);
        for (int i = 0; i < count; i++) {
            assertThat(receiver.next()).startsWith("burst " + i + " from ");
        }
    }

    @Test
    void aConnectedChannelSendsPlainBuffersToItsPeer() throws Exception {
        Receiver peerReceiver = new Receiver();
        Channel peer = bind(peerReceiver);
        Channel client = bind(new Receiver());
        assertSucceeds(client.connect(peer.localAddress()));
        assertThat(isConnected(client)).isTrue();
        assertThat(client.remoteAddress()).isEqualTo(peer.localAddress());
        client.writeAndFlush(text("plain"));
        assertThat(peerReceiver.next()).isEqualTo("plain from " + client.localAddress() + " to " + peer.localAddress());

        assertSucceeds(client.disconnect());
        assertThat(isConnected(client)).isFalse();
        assertThat(client.isActive()).as("still bound").isTrue();
        assertThat(client.remoteAddress()).isNull();
    }

    @Test
    void writingToAnUnresolvedAddressFailsTheWrite() throws Exception {
        Channel client = bind(new Receiver());
        ByteBuf content = text("nowhere");
        ChannelFuture f = client.writeAndFlush(
                new DatagramPacket(content, InetSocketAddress.createUnresolved("unresolved.invalid", 9)));
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isInstanceOf(UnresolvedAddressException.class);
        assertThat(content.refCnt()).as("released").isZero();
        assertThat(client.isOpen()).isTrue();
    }

    @Test
    void unsupportedMessagesAreRefusedAndReleased() throws Exception {
        Channel client = bind(new Receiver());
        ChannelFuture f = client.writeAndFlush("not a datagram");
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void datagramOptionsRoundTrip() throws Exception {
        Channel ch = bind(new Receiver());
        assertThat(ch.config().setOption(ChannelOption.SO_BROADCAST, true)).isTrue();
        assertThat(ch.config().getOption(ChannelOption.SO_BROADCAST)).isTrue();
        assertThat(ch.config().setOption(ChannelOption.IP_MULTICAST_TTL, 7)).isTrue();
        assertThat(ch.config().getOption(ChannelOption.IP_MULTICAST_TTL)).isEqualTo(7);
        assertThat(ch.config().setOption(ChannelOption.IP_MULTICAST_LOOP_DISABLED, true)).isTrue();
        assertThat(ch.config().getOption(ChannelOption.IP_MULTICAST_LOOP_DISABLED)).isTrue();
        assertThat(ch.config().setOption(ChannelOption.IP_TOS, 0x10)).isTrue();
        assertThat(ch.config().getOption(ChannelOption.IP_TOS)).isEqualTo(0x10);
        assertThat(ch.config().getOptions()).containsKeys(ChannelOption.SO_BROADCAST, ChannelOption.IP_MULTICAST_IF,
                ChannelOption.IP_MULTICAST_TTL, ChannelOption.IP_MULTICAST_LOOP_DISABLED, ChannelOption.SO_RCVBUF,
                ChannelOption.SO_SNDBUF, ChannelOption.SO_REUSEADDR, ChannelOption.IP_TOS);
    }

    @Test
    void leavingAGroupNeverJoinedFailsTheFuture() throws Exception {
        Channel client = bind(new Receiver());
        ChannelFuture f = leaveGroup(client, InetAddress.getByName("239.255.0.1"));
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isInstanceOf(IllegalStateException.class).hasMessageContaining("239.255.0.1");
    }

    @Test
    void aJoinedMulticastGroupDeliversWhatIsSentToIt() throws Exception {
        NetworkInterface loopback = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
        if (loopback == null || !loopback.isUp()) {
            Assumptions.abort("no loopback interface is up on this host");
        }
        Receiver receiver = new Receiver();
        Bootstrap b = new Bootstrap().group(group)
                .channelFactory(loop -> newChannel(loop, StandardProtocolFamily.INET))
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.IP_MULTICAST_IF, loopback)
                .handler(receiver);
        Channel ch = bind(b, new InetSocketAddress(0));
        assertThat(ch.config().getOption(ChannelOption.IP_MULTICAST_IF)).isEqualTo(loopback);
        InetAddress multicastGroup = InetAddress.getByName("239.255.27.1");
        ChannelFuture joined = joinGroup(ch, multicastGroup, loopback);
        assertThat(joined.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        if (joined.cause() instanceof IOException e && !loopback.supportsMulticast()) {
            Assumptions.abort("the loopback interface refuses multicast on this host: " + e.getMessage());
        }
        assertThat(joined.cause()).isNull();

        InetSocketAddress target = new InetSocketAddress(multicastGroup, ((InetSocketAddress) ch.localAddress()).getPort());
        assertSucceeds(ch.writeAndFlush(new DatagramPacket(text("to the group"), target)));
        assertThat(receiver.next()).startsWith("to the group from ");

        assertSucceeds(leaveGroup(ch, multicastGroup));
    }
}
