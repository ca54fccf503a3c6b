package io.weir.channel.epoll;

import static io.weir.channel.epoll.EpollChannels.TIMEOUT_SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOption;
import io.weir.channel.epoll.EpollChannels.Collector;
import io.weir.channel.epoll.EpollChannels.Echo;
import io.weir.channel.unix.ConnectionResetException;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.NativeConnectException;
import io.weir.channel.unix.NativeIoException;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The Linux TCP options of the epoll channels, TCP_INFO, and how socket errors reach users. */
class EpollTcpOptionsTest extends AbstractEpollChannelTest {
    /** Bit of CAP_NET_ADMIN in /proc/self/status' CapEff (linux/capability.h). */
    private static final int CAP_NET_ADMIN = 12;
    /** Microseconds: a loopback round trip below this is plausible on the busiest machine. */
    private static final long PLAUSIBLE_LOOPBACK_RTT_MICROS = 1_000_000;


    EpollTcpOptionsTest() {
        super(2);
    }

    private static boolean hasNetAdmin() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("CapEff:")) {
                return new BigInteger(line.substring("CapEff:".length()).trim(), 16).testBit(CAP_NET_ADMIN);
            }
        }
        return false;
    }

    @Test
    void serverSetUpOptionsRoundTripThroughTheKernel() throws Exception {
        EpollServerSocketChannel server = track(new EpollServerSocketChannel(loop, group));
        var config = server.config();

        config.setOption(EpollChannelOption.TCP_FASTOPEN, 64);
        // Values on the kernel's SYN-ACK retransmission schedule come back unchanged.
        config.setOption(EpollChannelOption.TCP_DEFER_ACCEPT, 3);
        config.setOption(EpollChannelOption.IP_FREEBIND, true);

        assertThat(config.getOption(EpollChannelOption.TCP_FASTOPEN)).isEqualTo(64);
        assertThat(config.getOption(EpollChannelOption.TCP_DEFER_ACCEPT)).isEqualTo(3);
        assertThat(config.getOption(EpollChannelOption.IP_FREEBIND)).isTrue();
        assertThat(config.getOption(EpollChannelOption.IP_TRANSPARENT)).isFalse();
        assertThat(config.getOptions()).containsKeys(EpollChannelOption.TCP_FASTOPEN,
                EpollChannelOption.TCP_DEFER_ACCEPT, EpollChannelOption.IP_TRANSPARENT, EpollChannelOption.IP_FREEBIND);
        config.setOption(EpollChannelOption.TCP_DEFER_ACCEPT, 0);
        assertThat(config.getOption(EpollChannelOption.TCP_DEFER_ACCEPT)).isZero();
    }

    @Test
    void clientOptionsRoundTripThroughTheKernel() {
        EpollSocketChannel channel = track(new EpollSocketChannel(loop));
        var config = channel.config();

        config.setOption(EpollChannelOption.TCP_FASTOPEN_CONNECT, true);
        config.setOption(EpollChannelOption.IP_FREEBIND, true);
        config.setOption(EpollChannelOption.SO_BUSY_POLL, 0);

        assertThat(config.getOption(EpollChannelOption.TCP_FASTOPEN_CONNECT)).isTrue();
        assertThat(config.getOption(EpollChannelOption.IP_FREEBIND)).isTrue();
        assertThat(config.getOption(EpollChannelOption.SO_BUSY_POLL)).isZero();
        assertThat(config.getOptions()).containsKeys(EpollChannelOption.TCP_FASTOPEN_CONNECT,
                EpollChannelOption.IP_TRANSPARENT, EpollChannelOption.IP_FREEBIND, EpollChannelOption.SO_BUSY_POLL);
    }

    @Test
    void negativeNumbersAreRefusedBeforeReachingTheKernel() {
        EpollServerSocketChannel server = track(new EpollServerSocketChannel(loop, group));

        assertThatThrownBy(() -> server.config().setOption(EpollChannelOption.TCP_FASTOPEN, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TCP_FASTOPEN: -1");
        assertThatThrownBy(() -> server.config().setOption(EpollChannelOption.TCP_DEFER_ACCEPT, -5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TCP_DEFER_ACCEPT: -5");
    }

    /**
     * IP_TRANSPARENT and raising SO_BUSY_POLL need CAP_NET_ADMIN: with it they round-trip, without it the kernel
     * says EPERM, which reaches the user as a ChannelException caused by a NativeIoException naming the option.
     */
    @Test
    void privilegedOptionsRoundTripWithCapNetAdminAndFailTypedWithout() throws Exception {
        EpollSocketChannel channel = track(new EpollSocketChannel(loop));
        var config = channel.config();

        if (hasNetAdmin()) {
            config.setOption(EpollChannelOption.IP_TRANSPARENT, true);
            config.setOption(EpollChannelOption.SO_BUSY_POLL, 50);
            assertThat(config.getOption(EpollChannelOption.IP_TRANSPARENT)).isTrue();
            assertThat(config.getOption(EpollChannelOption.SO_BUSY_POLL)).isEqualTo(50);
        } else {
            assertThatThrownBy(() -> config.setOption(EpollChannelOption.IP_TRANSPARENT, true))
                    .isInstanceOf(ChannelException.class).cause().isInstanceOf(NativeIoException.class)
                    .hasMessageContaining("IP_TRANSPARENT").hasMessageContaining("Operation not permitted");
            assertThatThrownBy(() -> config.setOption(EpollChannelOption.SO_BUSY_POLL, 50))
                    .isInstanceOf(ChannelException.class).cause().isInstanceOf(NativeIoException.class)
                    .hasMessageContaining("Operation not permitted");
            assertThat(config.getOption(EpollChannelOption.IP_TRANSPARENT)).isFalse();
        }
    }

    @Test
    void optionTheKernelRefusesInThisStateFailsWithTheErrno() throws Exception {
        EpollServerSocketChannel server = track(EpollChannels.server(loop, group, s -> { }, this::track, Echo::new));
        EpollSocketChannel client = track(EpollChannels.client(loop, server.localAddress(), c -> { },
                new ChannelHandler() { }));

        // A fast-open queue belongs to a listening socket; on a connected one the kernel says EINVAL.
        assertThatThrownBy(() -> EpollSocketOptions.set(client.socket(), EpollChannelOption.TCP_FASTOPEN, 16))
                .isInstanceOfSatisfying(NativeIoException.class,
                        e -> assertThat(e.errno()).isEqualTo(Errors.EINVAL));
        assertThatThrownBy(() -> client.config().setOption(EpollChannelOption.TCP_FASTOPEN_CONNECT, true))
                .isInstanceOf(ChannelException.class).hasMessageContaining("TCP_FASTOPEN_CONNECT")
                .cause().isInstanceOf(NativeIoException.class);
    }

    @Test
    void fastOpenServerAndClientStillCarryData() throws Exception {
        EpollServerSocketChannel server = track(EpollChannels.server(loop, group,
                s -> s.config().setOption(EpollChannelOption.TCP_FASTOPEN, 16), this::track, Echo::new));
        for (int i = 0; i < 2; i++) {
            // The first connection fetches a cookie where the kernel serves fast open; the second may use it.
            Collector collector = new Collector(3);
            EpollSocketChannel client = track(EpollChannels.client(loop, server.localAddress(),
                    c -> c.config().setOption(EpollChannelOption.TCP_FASTOPEN_CONNECT, true), collector));
            client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1, 2, (byte) i})).get(TIMEOUT_SECONDS,
                    TimeUnit.SECONDS);
            assertThat(collector.await()).containsExactly(1, 2, i);
        }
    }

    @Test
    void tcpInfoOfAConnectedSocketReportsEstablishedAndAPlausibleRoundTrip() throws Exception {
        EpollServerSocketChannel server = track(EpollChannels.server(loop, group, s -> { }, this::track, Echo::new));
        Collector collector = new Collector(1000);
        EpollSocketChannel client = track(EpollChannels.client(loop, server.localAddress(), c -> { }, collector));
        client.writeAndFlush(Unpooled.wrappedBuffer(new byte[1000]));
        collector.await();

        EpollTcpInfo info = client.tcpInfo();

        assertThat(info.state()).isEqualTo(EpollTcpInfo.STATE_ESTABLISHED);
        assertThat(info.rtt()).isPositive().isLessThan(PLAUSIBLE_LOOPBACK_RTT_MICROS);
        assertThat(info.rto()).isPositive();
        assertThat(info.sndMss()).isPositive();
        assertThat(info.rcvMss()).isPositive();
        assertThat(info.pmtu()).isPositive();
        assertThat(info.sndCwnd()).isPositive();
        assertThat(info.totalRetrans()).isNotNegative();
        assertThat(info.toString()).contains("state: 1", "rtt: ");
    }

    @Test
    void tcpInfoOfAClosedChannelFailsWithClosedChannelException() throws Exception {
        EpollSocketChannel channel = new EpollSocketChannel(loop);
        channel.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        assertThatThrownBy(channel::tcpInfo).isInstanceOf(ChannelException.class)
                .cause().isInstanceOf(ClosedChannelException.class);
    }

    @Test
    void connectionRefusedIsANativeConnectExceptionWithErrno() throws Exception {
        EpollServerSocketChannel server = track(EpollChannels.server(loop, group, s -> { }, this::track, Echo::new));
        InetSocketAddress address = server.localAddress();
        server.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        EpollSocketChannel client = track(new EpollSocketChannel(loop));
        client.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        ChannelFuture connect = client.connect(address);

        // The channel names the address in a ConnectException of its own; the native one, with its errno, is the cause.
        assertThatThrownBy(() -> connect.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause()
                .isInstanceOf(java.net.ConnectException.class).hasMessageContaining(String.valueOf(address.getPort()))
                .cause().isInstanceOfSatisfying(NativeConnectException.class,
                        e -> assertThat(e.errno()).isEqualTo(Errors.ECONNREFUSED));
    }

    @Test
    void resetByPeerReachesTheHandlerAsConnectionResetAndClosesTheChannel() throws Exception {
        CompletableFuture<Channel> accepted = new CompletableFuture<>();
        EpollServerSocketChannel server = track(EpollChannels.server(loop, group, s -> { }, c -> {
            track(c);
            accepted.complete(c);
        }, () -> new ChannelHandler() { }));
        CompletableFuture<Throwable> caught = new CompletableFuture<>();
        EpollSocketChannel client = track(EpollChannels.client(loop, server.localAddress(), c -> { },
                new ChannelHandler() {
                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        caught.complete(cause);
                    }
                }));
        Channel child = accepted.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        // Lingering for 0 seconds makes close(2) send a RST instead of a FIN.
        child.config().setOption(ChannelOption.SO_LINGER, 0);
        child.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        assertThat(caught.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOfSatisfying(ConnectionResetException.class,
                        e -> assertThat(e.errno()).isEqualTo(Errors.ECONNRESET));
        client.closeFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(client.isOpen()).isFalse();
    }
}
