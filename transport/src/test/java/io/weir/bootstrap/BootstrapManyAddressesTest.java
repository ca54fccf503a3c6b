package io.weir.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.resolver.AddressResolver;
import io.weir.resolver.AddressResolverGroup;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.Future;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A name that resolves to several addresses is tried address by address: a closed port then an open one
 * connects (on a fresh channel, the future naming the connected channel), and when every address fails, the
 * failure names them all.
 */
class BootstrapManyAddressesTest {
    private static final long TIMEOUT_SECONDS = 10;

    private EventLoopGroup group;

    /** Resolves every name to the same fixed list of addresses. */
    private static final class FixedResolverGroup extends AddressResolverGroup<InetSocketAddress> {
        private final List<InetSocketAddress> addresses;

        FixedResolverGroup(List<InetSocketAddress> addresses) {
            this.addresses = addresses;
        }

        @Override
        protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
            return new AddressResolver<>() {
                @Override
                public boolean isSupported(SocketAddress address) {
                    return address instanceof InetSocketAddress;
                }

                @Override
                public boolean isResolved(SocketAddress address) {
                    return !((InetSocketAddress) address).isUnresolved();
                }

                @Override
                public Future<InetSocketAddress> resolve(SocketAddress address) {
                    return executor.newSucceededFuture(addresses.get(0));
                }

                @Override
                public Future<List<InetSocketAddress>> resolveAll(SocketAddress address) {
                    return executor.newSucceededFuture(addresses);
                }

                @Override
                public void close() {
                }
            };
        }
    }

    @BeforeEach
    void start() {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    }

    @AfterEach
    void stop() throws Exception {
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private static InetSocketAddress closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return new InetSocketAddress(InetAddress.getLoopbackAddress(), s.getLocalPort());
        }
    }

    private Bootstrap bootstrap(List<InetSocketAddress> addresses, AtomicInteger channels) {
        return new Bootstrap().group(group).channel(NioSocketChannel.class)
                .resolver(new FixedResolverGroup(addresses))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        channels.incrementAndGet();
                        ch.pipeline().addLast(new ChannelHandler() { });
                    }
                });
    }

    @Test
    void closedPortThenOpenPortConnects() throws Exception {
        try (ServerSocket open = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            InetSocketAddress closed = closedPort();
            InetSocketAddress reachable = new InetSocketAddress(InetAddress.getLoopbackAddress(), open.getLocalPort());
            AtomicInteger channels = new AtomicInteger();
            ChannelFuture f = bootstrap(List.of(closed, reachable), channels).connect("service.test", 1);
            assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(f.cause()).isNull();
            assertThat(f.channel().isActive()).isTrue();
            assertThat(f.channel().remoteAddress()).isEqualTo(reachable);
            assertThat(channels.get()).as("one channel per address tried").isEqualTo(2);
            f.channel().close().sync();
        }
    }

    @Test
    void everyAddressFailingNamesThemAll() throws Exception {
        InetSocketAddress first = closedPort();
        InetSocketAddress second = closedPort();
        AtomicInteger channels = new AtomicInteger();
        ChannelFuture f = bootstrap(List.of(first, second), channels).connect("service.test", 1);
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isInstanceOf(ConnectException.class)
                .hasMessageContaining("could not connect to service.test")
                .hasMessageContaining(first.toString()).hasMessageContaining(second.toString());
        assertThat(f.cause().getSuppressed()).hasSize(2);
        assertThat(f.channel().isOpen()).isFalse();
        assertThat(channels.get()).isEqualTo(2);
    }

    @Test
    void singleAddressFailsWithItsOwnCause() throws Exception {
        AtomicInteger channels = new AtomicInteger();
        ChannelFuture f = bootstrap(List.of(closedPort()), channels).connect("service.test", 1);
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isInstanceOf(ConnectException.class).hasMessageNotContaining("could not connect to");
        assertThat(channels.get()).isEqualTo(1);
    }

    @Test
    void connectTimeoutAppliesToEachTry() throws Exception {
        // 192.0.2.1 (TEST-NET-1) is not routed: the connect hangs until the per-try timeout (or fails at once where
        // the network says so), then the next address is tried.
        try (ServerSocket open = new ServerSocket(0, 8, InetAddress.getLoopbackAddress())) {
            InetSocketAddress blackHole = new InetSocketAddress(InetAddress.getByAddress(new byte[] {(byte) 192, 0, 2, 1}),
                    open.getLocalPort());
            InetSocketAddress reachable = new InetSocketAddress(InetAddress.getLoopbackAddress(), open.getLocalPort());
            AtomicInteger channels = new AtomicInteger();
            ChannelFuture f = bootstrap(List.of(blackHole, reachable), channels)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 200).connect("service.test", 1);
            assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(f.cause()).isNull();
            assertThat(f.channel().remoteAddress()).isEqualTo(reachable);
            f.channel().close().sync();
        }
    }
}
