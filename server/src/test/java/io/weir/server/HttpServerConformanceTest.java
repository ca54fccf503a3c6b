package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The RFC 9112 cases an external conformance replay sends to the example server with its defaults, over a real
 * socket: each request and the exact status it must get, with no 2xx or 404 for what the server does not
 * implement (CONNECT, asterisk-form other than OPTIONS).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpServerConformanceTest {
    private static final String H = "Host: x\r\nConnection: close\r\n";

    private static EventLoopGroup group;
    private static HttpServer server;
    private static InetSocketAddress address;

    @BeforeAll
    static void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        server = new HttpServer(group);
        Channel channel = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        address = (InetSocketAddress) channel.localAddress();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    static Stream<Arguments> cases() {
        String chunked = "POST /echo HTTP/1.1\r\n" + H + "Transfer-Encoding: chunked\r\n\r\n";
        return Stream.of(
                Arguments.of("OPTIONS * is answered by the server", "OPTIONS * HTTP/1.1\r\n" + H + "\r\n", 200),
                Arguments.of("CONNECT to an origin server", "CONNECT x:443 HTTP/1.1\r\n" + H + "\r\n", 501),
                Arguments.of("asterisk-form with GET", "GET * HTTP/1.1\r\n" + H + "\r\n", 400),
                Arguments.of("authority-form with GET", "GET x:80 HTTP/1.1\r\n" + H + "\r\n", 400),
                Arguments.of("absolute-form", "GET http://x/plaintext HTTP/1.1\r\n" + H + "\r\n", 404),
                Arguments.of("no Host", "GET /plaintext HTTP/1.1\r\nConnection: close\r\n\r\n", 400),
                Arguments.of("two Host lines", "GET /plaintext HTTP/1.1\r\nHost: a\r\n" + H + "\r\n", 400),
                Arguments.of("Host list", "GET /plaintext HTTP/1.1\r\nHost: a, b\r\nConnection: close\r\n\r\n", 400),
                Arguments.of("Host with userinfo", "GET /plaintext HTTP/1.1\r\nHost: u@a\r\nConnection: close\r\n\r\n",
                        400),
                Arguments.of("Host with a path", "GET /plaintext HTTP/1.1\r\nHost: a/b\r\nConnection: close\r\n\r\n",
                        400),
                Arguments.of("HTTP/1.0 without Host", "GET /plaintext HTTP/1.0\r\n\r\n", 200),
                Arguments.of("chunk extension without a name", chunked + "5;\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("chunk extension with a bad token", chunked + "5;a@b\r\nhello\r\n0\r\n\r\n", 400),
                Arguments.of("legal chunk extensions", chunked + "5;a=b;c=\"d\"\r\nhello\r\n0\r\n\r\n", 200),
                Arguments.of("chunk size of 4 GiB", chunked + "100000000\r\nhello", 413),
                Arguments.of("request line of 8,000 octets", "GET /" + "a".repeat(7985) + " HTTP/1.1\r\n" + H
                        + "\r\n", 404),
                Arguments.of("request line of 9,000 octets", "GET /" + "a".repeat(8985) + " HTTP/1.1\r\n" + H
                        + "\r\n", 414),
                Arguments.of("a few leading empty lines", "\r\n\r\nGET /plaintext HTTP/1.1\r\n" + H + "\r\n", 200),
                Arguments.of("many leading empty lines", "\r\n".repeat(100) + "GET /plaintext HTTP/1.1\r\n" + H
                        + "\r\n", 400),
                Arguments.of("Content-Length list of identical values", "POST /echo HTTP/1.1\r\n" + H
                        + "Content-Length: 5, 5\r\n\r\nhello", 400),
                Arguments.of("Content-Length twice", "POST /echo HTTP/1.1\r\n" + H
                        + "Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello", 400));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void isAnsweredWithItsStatus(String name, String request, int status) throws Exception {
        try (RawHttp client = new RawHttp(address)) {
            RawHttp.Response response = client.sendRaw(request.getBytes(StandardCharsets.ISO_8859_1));
            assertThat(response.status()).as(name).isEqualTo(status);
            if (request.startsWith("OPTIONS *")) {
                assertThat(response.header("allow")).contains("OPTIONS");
                assertThat(response.header("content-length")).isEqualTo("0");
            }
        }
    }
}
