package io.weir.handler.ssl;

import static io.weir.handler.ssl.TlsTestSupport.TIMEOUT_SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.EventLoopGroup;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.HttpVersion;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Weir's TLS server against real clients: {@code openssl s_client} and curl. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class InteropTest {
    private static final String OPENSSL_INSTALL = "apt-get install -y openssl";
    private static final String CURL_INSTALL = "apt-get install -y curl";

    private EventLoopGroup group;
    private final List<Channel> servers = new ArrayList<>();

    @BeforeEach
    void setUp() {
        group = SocketTransport.NIO.newGroup(1);
    }

    @AfterEach
    void tearDown() throws Exception {
        for (Channel c : servers) {
            c.close().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private InetSocketAddress start(SslContext ctx, ChannelHandler... app) throws Exception {
        Channel server = SocketTransport.NIO.bind(group, ch -> {
            ch.pipeline().addLast(ctx.newHandler(ch.alloc()));
            ch.pipeline().addLast(app);
        });
        servers.add(server);
        return (InetSocketAddress) server.localAddress();
    }

    @ParameterizedTest
    @ValueSource(strings = {"tls1_2", "tls1_3"})
    void opensslClientNegotiatesProtocolAndAlpnAndGetsItsLineEchoed(String version) throws Exception {
        String openssl = ExternalPeers.require("openssl", OPENSSL_INSTALL);
        SslContext ctx = TlsTestSupport.server().applicationProtocols("h2", "http/1.1").build();
        InetSocketAddress address = start(ctx, SslHandlerSocketTest.Echo.INSTANCE);
        Process p = new ProcessBuilder(openssl, "s_client", "-connect", "127.0.0.1:" + address.getPort(),
                "-servername", "localhost", "-" + version, "-alpn", "http/1.1,h2", "-ign_eof")
                .redirectErrorStream(true).start();
        try (OutputStream in = p.getOutputStream();
             BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            in.write("hello from openssl\n".getBytes(StandardCharsets.US_ASCII));
            in.flush();
            List<String> lines = ExternalPeers.readUntilLine(out, "hello from openssl");
            String expectedProtocol = version.equals("tls1_3") ? "TLSv1.3" : "TLSv1.2";
            assertThat(lines).anySatisfy(l -> assertThat(l).contains("New, " + expectedProtocol));
            assertThat(lines).contains("ALPN protocol: h2");
            assertThat(lines).anySatisfy(l -> assertThat(l).contains("Verify return code: 18")); // self-signed
        } finally {
            p.destroy();
            ExternalPeers.waitFor(p);
        }
    }

    @Test
    void opensslClientThatSendsCloseNotifyIsAnsweredAndExitsCleanly() throws Exception {
        String openssl = ExternalPeers.require("openssl", OPENSSL_INSTALL);
        InetSocketAddress address = start(TlsTestSupport.server().build(), SslHandlerSocketTest.Echo.INSTANCE);
        // Without -ign_eof (which -quiet would imply), s_client sends close_notify at the end of its input and exits
        // 0 once the session ends.
        Process p = new ProcessBuilder(openssl, "s_client", "-connect", "127.0.0.1:" + address.getPort(), "-brief")
                .redirectErrorStream(true).start();
        p.getOutputStream().close();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ExternalPeers.waitFor(p)).as(output).isZero();
    }

    /** A one-route HTTP server: every request gets "hello over TLS\n". */
    static final class Hello implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            FullHttpRequest request = (FullHttpRequest) msg;
            request.release();
            ByteBuf body = ctx.alloc().buffer().writeBytes("hello over TLS\n".getBytes(StandardCharsets.US_ASCII));
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body);
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain");
            HttpUtil.setContentLength(response, body.readableBytes());
            ctx.writeAndFlush(response);
        }
    }

    @Test
    void curlGetsAnHttpsResponse() throws Exception {
        String curl = ExternalPeers.require("curl", CURL_INSTALL);
        SslContext ctx = TlsTestSupport.server().applicationProtocols("http/1.1").build();
        InetSocketAddress address = start(ctx, new HttpServerCodec(), new HttpObjectAggregator(64 * 1024), new Hello());
        Process p = new ProcessBuilder(curl, "-sS", "-k", "--http1.1", "-w", "\n%{http_code} %{ssl_verify_result}",
                "https://127.0.0.1:" + address.getPort() + "/").redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ExternalPeers.waitFor(p)).as(output).isZero();
        assertThat(output).startsWith("hello over TLS\n").contains("\n200 ");
    }

    @Test
    void curlVerifiesTheSelfSignedCertificateForLocalhost() throws Exception {
        String curl = ExternalPeers.require("curl", CURL_INSTALL);
        InetSocketAddress address = start(TlsTestSupport.server().build(),
                new HttpServerCodec(), new HttpObjectAggregator(64 * 1024), new Hello());
        String ca = ExternalPeers.tempPem("weir-ca", TlsTestSupport.SERVER_CERT.certificatePem()).toString();
        // Full verification (no -k): the certificate's subjectAltName names localhost and 127.0.0.1.
        for (String host : List.of("localhost", "127.0.0.1")) {
            Process p = new ProcessBuilder(curl, "-sS", "--cacert", ca, "--http1.1",
                    "--resolve", "localhost:" + address.getPort() + ":127.0.0.1",
                    "https://" + host + ":" + address.getPort() + "/").redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(ExternalPeers.waitFor(p)).as(output).isZero();
            assertThat(output).isEqualTo("hello over TLS\n");
        }
    }
}
