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
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioDatagramChannel;
import io.weir.channel.nio.NioIoHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class NioDatagramChannelTest {
    private static final long TIMEOUT_SECONDS = 30;
    private static final InetSocketAddress LOOPBACK_ANY_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private EventLoopGroup group;

    @BeforeEach
    void start() {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    }

    @AfterEach
    void stop() throws Exception {
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Sends every packet back to where it came from. */
    @ChannelHandler.Sharable
    private static final class DatagramEcho implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            ctx.writeAndFlush(new DatagramPacket(packet.content(), packet.sender()));
        }
    }

    /** Queues what it reads, as text with the sender. */
    private static final class Receiver implements ChannelHandler {
        final BlockingQueue<String> received = new LinkedBlockingQueue<>();

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
    }

    private Channel bind(ChannelHandler handler) throws Exception {
        ChannelFuture f = new Bootstrap().group(group).channel(NioDatagramChannel.class).handler(handler)
                .bind(LOOPBACK_ANY_PORT);
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isNull();
        return f.channel();
    }

    @Test
    void datagramsComeBackFromAnEchoPeer() throws Exception {
        Channel echo = bind(new DatagramEcho());
        Receiver receiver = new Receiver();
        Channel client = bind(receiver);
        try {
            InetSocketAddress echoAddress = (InetSocketAddress) echo.localAddress();
            for (int i = 0; i < 5; i++) {
                // Heap content: copied into direct memory by the channel.
                ByteBuf content = Unpooled.copiedBuffer("datagram " + i, StandardCharsets.UTF_8);
                ChannelFuture sent = client.writeAndFlush(new DatagramPacket(content, echoAddress));
                assertThat(sent.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                assertThat(sent.cause()).isNull();
                assertThat(receiver.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                        .isEqualTo("datagram " + i + " from " + echoAddress + " to " + client.localAddress());
            }
        } finally {
            echo.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            client.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void aConnectedChannelSendsPlainBuffersToItsPeer() throws Exception {
        Receiver peerReceiver = new Receiver();
        Channel peer = bind(peerReceiver);
        Channel client = bind(new Receiver());
        try {
            ChannelFuture connected = client.connect(peer.localAddress());
            assertThat(connected.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(connected.cause()).isNull();
            assertThat(((NioDatagramChannel) client).isConnected()).isTrue();
            assertThat(client.remoteAddress()).isEqualTo(peer.localAddress());
            client.writeAndFlush(Unpooled.copiedBuffer("plain", StandardCharsets.UTF_8));
            assertThat(peerReceiver.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isEqualTo("plain from " + client.localAddress() + " to " + peer.localAddress());

            ChannelFuture disconnected = client.disconnect();
            assertThat(disconnected.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(disconnected.cause()).isNull();
            assertThat(((NioDatagramChannel) client).isConnected()).isFalse();
            assertThat(client.isActive()).as("still bound").isTrue();
        } finally {
            peer.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            client.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void unsupportedMessagesAreRefusedAndReleased() throws Exception {
        Channel client = bind(new Receiver());
        try {
            ChannelFuture f = client.writeAndFlush("not a datagram");
            assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(f.cause()).isInstanceOf(UnsupportedOperationException.class);
        } finally {
            client.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void leavingAGroupNeverJoinedFailsTheFuture() throws Exception {
        NioDatagramChannel client = (NioDatagramChannel) bind(new Receiver());
        try {
            ChannelFuture f = client.leaveGroup(InetAddress.getByName("239.255.0.1"));
            assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(f.cause()).isInstanceOf(IllegalStateException.class).hasMessageContaining("239.255.0.1");
        } finally {
            client.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void aJoinedMulticastGroupDeliversWhatIsSentToIt() throws Exception {
        NetworkInterface loopback = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
        Receiver receiver = new Receiver();
        ChannelFuture bound = new Bootstrap().group(group)
                .channelFactory(loop -> new NioDatagramChannel(loop, StandardProtocolFamily.INET))
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.IP_MULTICAST_IF, loopback)
                .handler(receiver)
                .bind(new InetSocketAddress(0));
        assertThat(bound.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(bound.cause()).isNull();
        NioDatagramChannel ch = (NioDatagramChannel) bound.channel();
        try {
            assertThat(ch.config().getOption(ChannelOption.IP_MULTICAST_IF)).isEqualTo(loopback);
            InetAddress multicastGroup = InetAddress.getByName("239.255.27.1");
            ChannelFuture joined = ch.joinGroup(multicastGroup, loopback);
            assertThat(joined.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(joined.cause()).isNull();

            InetSocketAddress target = new InetSocketAddress(multicastGroup, ch.localAddress().getPort());
            ch.writeAndFlush(new DatagramPacket(Unpooled.copiedBuffer("to the group", StandardCharsets.UTF_8), target));
            assertThat(receiver.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).startsWith("to the group from ");

            ChannelFuture left = ch.leaveGroup(multicastGroup);
            assertThat(left.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(left.cause()).isNull();
        } finally {
            ch.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }
}
