package io.weir.example.http2;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.example.client.HttpsClient;
import io.weir.handler.ssl.ApplicationProtocolNames;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The HTTP/2 hello example: h2c by Upgrade, HTTP/1.1 on the same port, and h2 or HTTP/1.1 over TLS by ALPN. */
class Http2HelloServerTest {
    private EventLoopGroup group;
    private int port;
    private int tlsPort;

    @BeforeEach
    void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        port = portOf(Http2HelloServer.startCleartext(group, 0));
        tlsPort = portOf(Http2HelloServer.startTls(group, 0, Http2HelloServer.selfSignedContext()));
    }

    @AfterEach
    void stop() throws Exception {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    @Test
    void cleartextPortServesH2cAndHttp1() throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + port + "/");
        for (HttpClient.Version version : List.of(HttpClient.Version.HTTP_1_1, HttpClient.Version.HTTP_2)) {
            HttpClient client = HttpClient.newBuilder().version(version).connectTimeout(Duration.ofSeconds(30)).build();
            // Twice: the second request of the HTTP/2 client goes on the upgraded connection.
            for (int i = 0; i < 2; i++) {
                HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri)
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.version()).isEqualTo(version);
                assertThat(response.body()).isEqualTo("Hello, Weir! ("
                        + (version == HttpClient.Version.HTTP_2 ? "HTTP/2" : "HTTP/1.1") + ")\n");
            }
        }
    }

    @Test
    void tlsPortServesH2AndHttp1ByAlpn() throws Exception {
        URI uri = URI.create("https://127.0.0.1:" + tlsPort + "/");
        HttpsClient.Response h2 = HttpsClient.get(group, uri, HttpsClient.context(true)).get(30, TimeUnit.SECONDS);
        assertThat(h2.protocol()).isEqualTo(ApplicationProtocolNames.HTTP_2);
        assertThat(h2.body()).isEqualTo("Hello, Weir! (HTTP/2)\n");
        HttpsClient.Response http1 = HttpsClient.get(group, uri,
                HttpsClient.context(true, ApplicationProtocolNames.HTTP_1_1)).get(30, TimeUnit.SECONDS);
        assertThat(http1.protocol()).isEqualTo(ApplicationProtocolNames.HTTP_1_1);
        assertThat(http1.body()).isEqualTo("Hello, Weir! (HTTP/1.1)\n");
    }

    private static int portOf(Channel channel) {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }
}
