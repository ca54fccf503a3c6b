package io.weir.handler.codec.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.SimpleChannelInboundHandler;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpServerPolicy;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.ssl.ApplicationProtocolNames;
import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.handler.ssl.SslContext;
import io.weir.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The one-call server pipeline against curl: HTTP/1.1, h2c by prior knowledge and by Upgrade on a cleartext port,
 * and h2 or HTTP/1.1 by ALPN on a TLS port, all served by one handler that names the protocol it was reached by.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpServerInitializerTest {
    private static final int CURL_MAX_SECONDS = 20;
    private static EventLoopGroup group;
    private static Channel plain;
    private static Channel tls;

    @BeforeAll
    static void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        HttpServerPolicy policy = HttpServerPolicy.builder().maxConnections(64).build();
        plain = new HttpServerInitializer(policy, new Hello())
                .configure(new ServerBootstrap().group(group).channel(NioServerSocketChannel.class))
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        SelfSignedCertificate cert = SelfSignedCertificate.create("localhost");
        SslContext context = SslContextBuilder.forServer(cert.privateKey(), cert.certificate())
                .applicationProtocols(ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1).build();
        tls = HttpServerInitializer.builder(new Hello()).policy(policy).tls(context).build()
                .configure(new ServerBootstrap().group(group).channel(NioServerSocketChannel.class))
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    @AfterAll
    static void stop() throws Exception {
        plain.close().sync();
        tls.close().sync();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    /** Aggregates the request, then answers with the protocol it came over. */
    private static final class Hello extends ChannelInitializer<Channel> {
        @Override
        protected void initChannel(Channel ch) {
            ch.pipeline().addLast(new HttpObjectAggregator(64 * 1024), new Answer());
        }
    }

    private static final class Answer extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void messageReceived(ChannelHandlerContext ctx, FullHttpRequest request) {
            String protocol = ctx.channel() instanceof Http2StreamChannel ? "h2" : "http/1.1";
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.copiedBuffer("hello over " + protocol, StandardCharsets.US_ASCII));
            HttpUtil.setContentLength(response, response.content().readableBytes());
            ctx.writeAndFlush(response);
        }
    }

    private static String url(Channel server, String scheme) {
        return scheme + "://localhost:" + ((InetSocketAddress) server.localAddress()).getPort() + "/";
    }

    /** Runs curl with {@code options} on {@code url}; returns the body and then, on its own line, the version. */
    private static String curl(String url, String... options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", String.valueOf(CURL_MAX_SECONDS),
                "-w", "\n%{http_version}"));
        command.addAll(List.of(options));
        command.add(url);
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return fail("curl is needed for this test: apt-get install curl", e);
        }
        String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(process.waitFor(CURL_MAX_SECONDS + 10, TimeUnit.SECONDS)).as("curl finished").isTrue();
        assertThat(process.exitValue()).as("curl's exit status; output: %s", output).isZero();
        return output;
    }

    @Test
    void cleartextPortServesHttp11() throws Exception {
        assertThat(curl(url(plain, "http"), "--http1.1")).isEqualTo("hello over http/1.1\n1.1");
    }

    @Test
    void cleartextPortServesH2cByPriorKnowledge() throws Exception {
        assertThat(curl(url(plain, "http"), "--http2-prior-knowledge")).isEqualTo("hello over h2\n2");
    }

    @Test
    void cleartextPortUpgradesToH2c() throws Exception {
        // The upgraded request is answered on stream 1, through the same handler.
        assertThat(curl(url(plain, "http"), "--http2")).isEqualTo("hello over h2\n2");
    }

    @Test
    void tlsPortServesH2ByAlpn() throws Exception {
        assertThat(curl(url(tls, "https"), "-k", "--http2")).isEqualTo("hello over h2\n2");
    }

    @Test
    void tlsPortServesHttp11ByAlpn() throws Exception {
        assertThat(curl(url(tls, "https"), "-k", "--http1.1")).isEqualTo("hello over http/1.1\n1.1");
    }

    @Test
    void policyCapsConnectionsOnTheListeningChannel() {
        HttpServerInitializer capped = new HttpServerInitializer(
                HttpServerPolicy.builder().maxConnections(3).build(), new Hello());
        assertThat(capped.connectionLimit().maxConnections()).isEqualTo(3);
        assertThat(new HttpServerInitializer(HttpServerPolicy.defaults(), new Hello()).connectionLimit())
                .as("no cap by default").isNull();
    }

    @Test
    void clientTlsContextIsRefused() throws Exception {
        SslContext client = SslContextBuilder.forClient().build();
        assertThatThrownBy(() -> HttpServerInitializer.builder(new Hello()).tls(client))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("tls: ");
    }
}
