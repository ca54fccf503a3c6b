package io.weir.example.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.handler.ssl.ApplicationProtocolNames;
import io.weir.server.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The HTTPS client example against the reference server's TLS port (self-signed). */
class HttpsClientTest {
    private EventLoopGroup group;
    private HttpServer server;
    private URI plaintext;

    @BeforeEach
    void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        server = new HttpServer(group);
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        server.start(any);
        int port = ((InetSocketAddress) server.startTls(any).localAddress()).getPort();
        plaintext = URI.create("https://127.0.0.1:" + port + "/plaintext");
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    @Test
    void getsOverHttp2WhenTheServerOffersIt() throws Exception {
        HttpsClient.Response r = HttpsClient.get(group, plaintext, HttpsClient.context(true))
                .get(30, TimeUnit.SECONDS);
        assertThat(r.protocol()).isEqualTo(ApplicationProtocolNames.HTTP_2);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("Hello, World!");
    }

    @Test
    void getsOverHttp11WhenOnlyThatIsOffered() throws Exception {
        HttpsClient.Response r = HttpsClient.get(group, plaintext,
                HttpsClient.context(true, ApplicationProtocolNames.HTTP_1_1)).get(30, TimeUnit.SECONDS);
        assertThat(r.protocol()).isEqualTo(ApplicationProtocolNames.HTTP_1_1);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("Hello, World!");
    }

    @Test
    void aServerThatNeverAnswersTheHandshakeTimesOut() throws Exception {
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            var future = HttpsClient.get(group, URI.create("https://127.0.0.1:" + silent.getLocalPort() + "/"),
                    HttpsClient.context(true), 200);
            assertThatThrownBy(() -> future.get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(java.util.concurrent.TimeoutException.class);
        }
    }

    @Test
    void aSelfSignedServerIsRefusedWithoutInsecure() throws Exception {
        var future = HttpsClient.get(group, plaintext, HttpsClient.context(false));
        assertThatThrownBy(() -> future.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(javax.net.ssl.SSLException.class);
    }
}
