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

/** The pooled keep-alive client against the reference server: many requests, a few connections. */
class PooledHttpClientTest {
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
    void fortyConcurrentRequestsShareThreeKeptAliveConnections() throws Exception {
        try (PooledHttpClient client = new PooledHttpClient(group, address, 3)) {
            List<CompletableFuture<PooledHttpClient.Response>> all = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                all.add(client.get(i % 2 == 0 ? "/plaintext" : "/json"));
            }
            for (int i = 0; i < all.size(); i++) {
                PooledHttpClient.Response r = all.get(i).get(30, TimeUnit.SECONDS);
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.body()).contains("Hello, World!");
            }
            assertThat(client.connectionsMade()).isBetween(1, 3);
        }
    }

    @Test
    void aServerThatNeverAnswersFailsTheRequestAndFreesTheConnection() throws Exception {
        // Connections land in the accept queue of a socket nobody reads from: the request is never answered.
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             PooledHttpClient client = new PooledHttpClient(group,
                     (InetSocketAddress) silent.getLocalSocketAddress(), 1, 200)) {
            var first = client.get("/plaintext");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> first.get(30, TimeUnit.SECONDS))
                    .isInstanceOf(java.util.concurrent.ExecutionException.class);
            // The connection went back to the pool (closed): the next request gets a new one, not a wait.
            var second = client.get("/plaintext");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> second.get(30, TimeUnit.SECONDS))
                    .isInstanceOf(java.util.concurrent.ExecutionException.class);
            assertThat(client.connectionsMade()).isEqualTo(2);
        }
    }

    @Test
    void oneConnectionServesRequestsOneAfterAnotherErrorsIncluded() throws Exception {
        try (PooledHttpClient client = new PooledHttpClient(group, address, 1)) {
            assertThat(client.get("/plaintext").get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
            // A 404 keeps the connection alive: the next request reuses it.
            assertThat(client.get("/missing").get(30, TimeUnit.SECONDS).status()).isEqualTo(404);
            assertThat(client.get("/json").get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
            assertThat(client.connectionsMade()).isEqualTo(1);
        }
    }
}
