package io.weir.resolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Resolution off the event loop: a slow name service never stalls the loop, and every wait is bounded. */
class DefaultAddressResolverGroupTest {
    private static final int TIMEOUT_SECONDS = 30;

    private final EventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final CountDownLatch release = new CountDownLatch(1);
    private Channel server;
    private int port;

    @BeforeEach
    void start() throws Exception {
        server = new ServerBootstrap().group(loops).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelHandler() { })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        port = ((InetSocketAddress) server.localAddress()).getPort();
    }

    @AfterEach
    void stop() throws Exception {
        release.countDown();
        server.close().sync();
        loops.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private Bootstrap client(AddressResolverGroup<?> resolver) {
        return new Bootstrap().group(loops).channel(NioSocketChannel.class).handler(new ChannelHandler() { })
                .resolver(resolver);
    }

    /** A name service that answers with the loopback address once the test releases it. */
    private InetAddress[] slowLoopback(String host) {
        try {
            release.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new InetAddress[] {InetAddress.getLoopbackAddress()};
    }

    @Test
    void aSlowNameServiceNeverBlocksTheEventLoop() throws Exception {
        DefaultAddressResolverGroup group = new DefaultAddressResolverGroup(this::slowLoopback, 30_000);
        ChannelFuture connected = client(group).connect("slow.example", port);
        EventLoop loop = connected.channel().eventLoop();
        // The lookup is still waiting: the loop runs other work meanwhile.
        assertThat(loop.submit(() -> "ran").get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("ran");
        assertThat(connected.isDone()).isFalse();
        release.countDown();
        assertThat(connected.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(connected.isSuccess()).as("%s", connected.cause()).isTrue();
        assertThat(((InetSocketAddress) connected.channel().remoteAddress()).getPort()).isEqualTo(port);
        connected.channel().close().sync();
    }

    @Test
    void anUnknownHostFailsTheConnectAndClosesTheChannel() throws Exception {
        DefaultAddressResolverGroup group = new DefaultAddressResolverGroup(host -> {
            throw new UnknownHostException(host);
        }, 30_000);
        ChannelFuture connected = client(group).connect("nowhere.invalid", port);
        assertThat(connected.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(connected.cause()).isInstanceOf(UnknownHostException.class).hasMessage("nowhere.invalid");
        assertThat(connected.channel().closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aNameServiceThatNeverAnswersTimesOut() throws Exception {
        DefaultAddressResolverGroup group = new DefaultAddressResolverGroup(this::slowLoopback, 200);
        ChannelFuture connected = client(group).connect("silent.example", port);
        assertThat(connected.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(connected.cause()).isInstanceOf(UnknownHostException.class)
                .hasMessageContaining("silent.example").hasMessageContaining("200 ms");
    }

    @Test
    void resolveAllKeepsTheNameServicesOrderAndResolvedAddressesPassThrough() throws Exception {
        InetAddress first = InetAddress.getByName("127.0.0.2");
        InetAddress second = InetAddress.getByName("127.0.0.3");
        DefaultAddressResolverGroup group = new DefaultAddressResolverGroup(
                host -> new InetAddress[] {first, second}, 30_000);
        AddressResolver<InetSocketAddress> resolver = group.getResolver(loops.next());
        List<InetSocketAddress> all = resolver.resolveAll(InetSocketAddress.createUnresolved("two.example", 80))
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(all).containsExactly(new InetSocketAddress(first, 80), new InetSocketAddress(second, 80));
        InetSocketAddress resolved = new InetSocketAddress(first, 81);
        assertThat(resolver.isResolved(resolved)).isTrue();
        assertThat(resolver.resolve(resolved).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isSameAs(resolved);
        group.close();
    }

    @Test
    void theDefaultResolvesLocalhost() throws Exception {
        ChannelFuture connected = new Bootstrap().group(loops).channel(NioSocketChannel.class)
                .handler(new ChannelHandler() { }).connect("localhost", port);
        assertThat(connected.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(connected.isSuccess()).as("%s", connected.cause()).isTrue();
        connected.channel().close().sync();
    }

    @Test
    void theNoopGroupHandsTheUnresolvedNameToThePipeline() throws Exception {
        // As a proxy handler needs it: the name reaches the first handler's connect, never the local resolver.
        java.util.concurrent.CompletableFuture<java.net.SocketAddress> seen = new java.util.concurrent.CompletableFuture<>();
        ChannelFuture connected = new Bootstrap().group(loops).channel(NioSocketChannel.class)
                .resolver(NoopAddressResolverGroup.INSTANCE)
                .handler(new ChannelHandler() {
                    @Override
                    public void connect(io.weir.channel.ChannelHandlerContext ctx, java.net.SocketAddress remote,
                                        java.net.SocketAddress local, io.weir.channel.ChannelPromise promise) {
                        seen.complete(remote);
                        ctx.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), local, promise);
                    }
                }).connect("only-the-proxy-knows.example", 1080);
        assertThat(connected.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        InetSocketAddress remote = (InetSocketAddress) seen.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(remote.isUnresolved()).isTrue();
        assertThat(remote.getHostString()).isEqualTo("only-the-proxy-knows.example");
        assertThat(connected.isSuccess()).as("%s", connected.cause()).isTrue();
        connected.channel().close().sync();
    }

    @Test
    void aShutDownExecutorIsRefused() throws Exception {
        EventLoopGroup other = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        other.shutdownGracefully(0, 0, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThatThrownBy(() -> DefaultAddressResolverGroup.INSTANCE.getResolver(other.next()))
                .isInstanceOf(IllegalStateException.class);
    }
}
