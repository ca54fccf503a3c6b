package io.weir.example.blocking;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The blocking-handler example: work runs off the event loop, on virtual threads where the JDK has them. */
class BlockingHandlerServerTest {
    private EventLoopGroup group;
    private ExecutorService workers;
    private String base;

    @BeforeEach
    void start() throws Exception {
        // One event loop: if the work ran on it, one slow request would hold every other connection.
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        workers = BlockingHandlerServer.newWorkers();
        Channel server = BlockingHandlerServer.start(group, workers, 0);
        base = "http://127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort();
    }

    @AfterEach
    void stop() throws Exception {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        workers.shutdownNow();
    }

    @Test
    void workRunsOnVirtualThreadsWhereTheJdkHasThem() throws Exception {
        HttpResponse<String> response = client().send(request("/?ms=10"), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        String thread = Runtime.version().feature() >= 21 ? "a virtual" : "a platform";
        assertThat(response.body()).isEqualTo("worked 10 ms on " + thread + " thread\n");
    }

    @Test
    void aBlockedRequestDoesNotHoldOtherConnections() throws Exception {
        // Two clients, so two connections on the one event loop.
        CompletableFuture<HttpResponse<String>> slow = client().sendAsync(request("/?ms=3000"),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> quick = client().send(request("/?ms=0"), HttpResponse.BodyHandlers.ofString());
        assertThat(quick.body()).startsWith("worked 0 ms");
        assertThat(slow).as("the quick answer came while the slow request was still blocked").isNotDone();
        assertThat(slow.get(30, TimeUnit.SECONDS).body()).startsWith("worked 3000 ms");
    }

    @Test
    void blockingTimeAClientAsksForIsCapped() {
        // A client cannot park a worker for longer than the cap, nor send a number too long to parse.
        assertThat(BlockingHandlerServer.blockMillis("/?ms=99999999999999999999")).isEqualTo(
                BlockingHandlerServer.MAX_BLOCK_MILLIS);
        assertThat(BlockingHandlerServer.blockMillis("/?ms=250")).isEqualTo(250);
        assertThat(BlockingHandlerServer.blockMillis("/?ms=x")).isZero();
        assertThat(BlockingHandlerServer.blockMillis("/")).isZero();
    }

    private static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(30))
                .build();
    }

    private HttpRequest request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).build();
    }
}
