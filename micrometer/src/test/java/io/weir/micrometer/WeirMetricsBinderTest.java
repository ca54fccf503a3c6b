package io.weir.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.PooledByteBufAllocator;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelMetricsHandler;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.metrics.HttpMetrics;
import io.weir.metrics.TlsMetrics;
import io.weir.metrics.WeirMetrics;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WeirMetricsBinderTest {
    private static final long TIMEOUT_SECONDS = 10;
    private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());

    @AfterEach
    void shutDown() {
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).awaitUninterruptibly();
    }

    @Test
    void connectionEventLoopsAndAllocatorShowUpInARealRegistry() throws Exception {
        WeirMetrics metrics = new WeirMetrics().addEventLoops(group);
        PooledByteBufAllocator allocator = new PooledByteBufAllocator(true, 1, 1, 8192, 1 << 16);
        metrics.addAllocator("test", allocator.metric());
        CompletableFuture<Channel> accepted = new CompletableFuture<>();
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new ChannelMetricsHandler(metrics.channels()), new Echo());
                        accepted.complete(ch);
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        CompletableFuture<String> echoed = new CompletableFuture<>();
        Channel client = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ByteBuf buf = (ByteBuf) msg;
                        echoed.complete(buf.toString(StandardCharsets.US_ASCII));
                        buf.release();
                    }
                })
                .connect(server.localAddress()).sync().channel();
        client.writeAndFlush(Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII)).sync();
        assertThat(echoed.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("hello");
        Channel serverSide = accepted.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        // The client hangs up: the server side closes on end of stream, a close by the peer.
        client.close().sync();
        assertThat(serverSide.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        // The inactive event runs after the close future completes: wait for it on the channel's loop.
        serverSide.eventLoop().submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        ByteBuf held = allocator.directBuffer(4096);
        try {
            MeterRegistry registry = new SimpleMeterRegistry();
            new WeirMetricsBinder(metrics, Tags.of("server", "test")).bindTo(registry);

            assertThat(registry.get("weir.connections.accepted").tag("server", "test").functionCounter().count())
                    .isEqualTo(1);
            assertThat(registry.get("weir.connections.open").gauge().value()).isZero();
            assertThat(registry.get("weir.connections.closed").tag("reason", "peer").functionCounter().count())
                    .isEqualTo(1);
            assertThat(registry.get("weir.connections.closed").tag("reason", "error").functionCounter().count())
                    .isZero();
            // Both ends are on the two loops: each sent five bytes and received five.
            assertThat(registry.get("weir.event.loop.received").functionCounters().stream()
                    .mapToDouble(c -> c.count()).sum()).isEqualTo(10);
            assertThat(registry.get("weir.event.loop.sent").functionCounters().stream()
                    .mapToDouble(c -> c.count()).sum()).isEqualTo(10);

            assertThat(registry.get("weir.event.loop.tasks").functionCounters()).hasSize(2);
            double tasks = registry.get("weir.event.loop.tasks").functionCounters().stream()
                    .mapToDouble(c -> c.count()).sum();
            assertThat(tasks).isPositive();
            double longest = registry.get("weir.event.loop.longest.task").timeGauges().stream()
                    .mapToDouble(g -> g.value(TimeUnit.NANOSECONDS)).max().orElse(0);
            assertThat(longest).as("tasks are timed once the loops are in a WeirMetrics").isPositive();
            assertThat(registry.get("weir.event.loop.io.time").functionCounters().stream()
                    .mapToDouble(c -> c.count()).sum()).as("accepting and echoing is I/O").isPositive();
            assertThat(registry.get("weir.event.loop.registered.channels").gauges().stream()
                    .mapToDouble(g -> g.value()).sum()).as("the listening channel").isGreaterThanOrEqualTo(1);

            assertThat(registry.get("weir.allocator.pinned.memory").tag("allocator", "test").tag("kind", "direct")
                    .gauge().value()).isGreaterThanOrEqualTo(4096);
            assertThat(registry.get("weir.allocator.used.memory").tag("kind", "direct").gauge().value())
                    .isEqualTo(1 << 16);
        } finally {
            held.release();
            server.close().sync();
        }
    }

    @Test
    void prometheusScrapeNamesEveryAreaWithTheWeirPrefix() {
        WeirMetrics metrics = new WeirMetrics();
        metrics.http().response(200);
        metrics.http().response(204);
        metrics.http().response(503);
        metrics.http().resetsSent().increment(HttpMetrics.http2ErrorIndex(8));
        metrics.http().goAwaysReceived().increment(HttpMetrics.http2ErrorIndex(0xffff));
        metrics.http().timeout(HttpMetrics.Timeout.STREAM_READ);
        metrics.http().activeStreams().increment();
        metrics.tls().handshakeCompleted(TlsMetrics.Engine.OPENSSL, true);
        metrics.tls().handshakeCompleted(TlsMetrics.Engine.JDK, false);
        metrics.tls().handshakeFailed(TlsMetrics.FailureReason.CERTIFICATE);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new WeirMetricsBinder(metrics).bindTo(registry);

        String text = registry.scrape();
        assertThat(text)
                .contains("weir_http_responses_total{status=\"2xx\"} 2")
                .contains("weir_http_responses_total{status=\"5xx\"} 1")
                .contains("weir_http2_resets_total{direction=\"sent\",error=\"CANCEL\"} 1")
                .contains("weir_http2_goaways_total{direction=\"received\",error=\"UNKNOWN_ERROR\"} 1")
                .contains("weir_http_timeouts_total{timeout=\"stream_read\"} 1")
                .contains("weir_http2_active_streams 1")
                .contains("weir_tls_handshakes_total{engine=\"openssl\"} 1")
                .contains("weir_tls_resumed_handshakes_total{engine=\"openssl\"} 1")
                .contains("weir_tls_handshake_failures_total{reason=\"certificate\"} 1")
                .contains("weir_tls_resumption_ratio 0.5")
                .contains("weir_connections_open 0");
        registry.close();
    }

    /** Writes back what it reads. */
    private static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }
    }
}
