package io.weir.example.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.server.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Many concurrent requests on one shared HTTP/2 connection to the reference server's h2c port. */
class Http2SharedClientTest {
    private EventLoopGroup group;
    private HttpServer server;
    private InetSocketAddress address;

    @BeforeEach
    void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        server = new HttpServer(group);
        address = (InetSocketAddress) server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .localAddress();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    @Test
    void aServerThatNeverAnswersFailsTheRequestInTime() throws Exception {
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             Http2SharedClient client = new Http2SharedClient(group,
                     (InetSocketAddress) silent.getLocalSocketAddress(), 200)) {
            var response = client.get("/plaintext");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> response.get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(java.util.concurrent.TimeoutException.class);
        }
    }

    @Test
    void fiftyConcurrentRequestsShareOneConnection() throws Exception {
        try (Http2SharedClient client = new Http2SharedClient(group, address)) {
            List<CompletableFuture<Http2SharedClient.Response>> all = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                all.add(client.get(i % 2 == 0 ? "/plaintext" : "/json"));
            }
            for (CompletableFuture<Http2SharedClient.Response> f : all) {
                Http2SharedClient.Response r = f.get(30, TimeUnit.SECONDS);
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).contains("Hello, World!");
            }
            assertThat(client.connectionsMade()).isEqualTo(1);
        }
    }
}
