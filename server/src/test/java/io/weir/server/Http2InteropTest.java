package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The example server's h2c port against real HTTP/2 clients: the JDK's HttpClient, curl, nghttp and h2load; on
 * NIO here, on io_uring in {@link IoUringHttp2InteropTest}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Http2InteropTest {
    private static EventLoopGroup group;
    private static HttpServer server;
    private static String base;
    private static Path root;
    /** Larger than a stream's 65,535-octet window: the file crosses several WINDOW_UPDATEs. */
    private static final int FILE_BYTES = 300_000;

    /** On NIO; a subclass's {@code start()} supersedes this one to serve on another transport. */
    @BeforeAll
    static void start() throws Exception {
        startOn(NioIoHandler.newFactory());
    }

    /** Serves the routes and a static root with a large file on loops of {@code io}. */
    static void startOn(IoHandlerFactory io) throws Exception {
        root = Files.createTempDirectory("h2-static");
        byte[] content = new byte[FILE_BYTES];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) ('a' + i % 26);
        }
        Files.write(root.resolve("big.txt"), content);
        group = new MultiThreadIoEventLoopGroup(2, io);
        server = new HttpServer(group).staticRoot(root);
        Channel channel = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        base = "http://127.0.0.1:" + ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @AfterAll
    static void stop() throws Exception {
        // Null when a subclass's start() was skipped: nothing of an earlier class may be closed twice.
        if (server == null) {
            return;
        }
        server.close();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        Files.deleteIfExists(root.resolve("big.txt"));
        Files.deleteIfExists(root);
        server = null;
        group = null;
    }

    @Test
    void staticFileOverH2FollowsTheStreamWindow() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(URI.create(base + "/static/big.txt"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(Files.readAllBytes(root.resolve("big.txt")));
    }

    @Test
    void curlUpgradesDownloadALargeFileWhileReadingSlowly() throws Exception {
        // curl switches its reader to HTTP/2 only after the 101 and gives up ("connection buffer size is too small
        // to store data following HTTP Upgrade response header") when more than 32 KiB of frames arrived behind it,
        // which eight slow readers at once made likely while the response left with the 101. It now waits for
        // each client's preface.
        String curl = ExternalTool.find("curl", "apt-get install curl").toString();
        byte[] expected = Files.readAllBytes(root.resolve("big.txt"));
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<byte[]>> downloads = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                downloads.add(clients.submit(() -> {
                    Path out = Files.createTempFile(root, "download", ".txt");
                    try {
                        ExternalTool.Result get = ExternalTool.run(60, List.of(curl, "-sS", "--http2",
                                "--limit-rate", "300k", "-o", out.toString(), "-w", "%{http_version} %{http_code}",
                                base + "/static/big.txt"));
                        assertThat(get.output()).isEqualTo("2 200");
                        return Files.readAllBytes(out);
                    } finally {
                        Files.deleteIfExists(out);
                    }
                }));
            }
            for (Future<byte[]> download : downloads) {
                assertThat(download.get(90, TimeUnit.SECONDS)).isEqualTo(expected);
            }
        } finally {
            clients.shutdownNow();
        }
    }

    @Test
    void jdkClientUpgradesToH2c() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(10)).build();
        for (String path : List.of("/plaintext", "/json", "/plaintext")) {
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(base + path))
                    .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        }
        HttpResponse<String> echo = client.send(HttpRequest.newBuilder(URI.create(base + "/echo"))
                .POST(HttpRequest.BodyPublishers.ofString("ping over h2")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(echo.statusCode()).isEqualTo(200);
        assertThat(echo.body()).isEqualTo("ping over h2");
    }

    @Test
    void curlWithPriorKnowledge() throws Exception {
        String curl = ExternalTool.find("curl", "apt-get install curl").toString();
        ExternalTool.Result get = ExternalTool.run(60, List.of(curl, "-sS", "--http2-prior-knowledge",
                "-w", "\\n%{http_version} %{http_code}", base + "/plaintext"));
        assertThat(get.output()).isEqualTo("Hello, World!\n2 200");
        ExternalTool.Result echo = ExternalTool.run(60, List.of(curl, "-sS", "--http2-prior-knowledge",
                "--data-binary", "posted body", base + "/echo"));
        assertThat(echo.output()).isEqualTo("posted body");
    }

    @Test
    void aLargeBodyIsEchoedAsItStreamsOverHttp2() throws Exception {
        String curl = ExternalTool.find("curl", "apt-get install curl").toString();
        java.nio.file.Path body = java.nio.file.Files.createTempFile("weir-echo", ".bin");
        java.nio.file.Path echoed = java.nio.file.Files.createTempFile("weir-echoed", ".bin");
        try {
            byte[] bytes = new byte[HttpServer.MAX_CONTENT_LENGTH_BYTES];
            new java.util.Random(7).nextBytes(bytes);
            java.nio.file.Files.write(body, bytes);
            ExternalTool.Result ok = ExternalTool.run(60, List.of(curl, "-sS", "--http2-prior-knowledge",
                    "-o", echoed.toString(), "-w", "%{http_code}", "--data-binary", "@" + body, base + "/echo"));
            assertThat(ok.output()).isEqualTo("200");
            assertThat(java.nio.file.Files.readAllBytes(echoed)).as("the whole body, back as sent").isEqualTo(bytes);
        } finally {
            java.nio.file.Files.deleteIfExists(body);
            java.nio.file.Files.deleteIfExists(echoed);
        }
    }

    @Test
    void curlUpgradesFromHttp1() throws Exception {
        String curl = ExternalTool.find("curl", "apt-get install curl").toString();
        ExternalTool.Result result = ExternalTool.run(60, List.of(curl, "-sS", "--http2", "-w",
                "\\n%{http_version} %{http_code}", base + "/json"));
        assertThat(result.output()).isEqualTo("{\"message\":\"Hello, World!\"}\n2 200");
    }

    @Test
    void nghttpGetsEveryRoute() throws Exception {
        String nghttp = ExternalTool.find("nghttp", "apt-get install nghttp2-client").toString();
        ExternalTool.Result result = ExternalTool.run(60, List.of(nghttp, "-v", base + "/plaintext",
                base + "/json", base + "/headers", base + "/missing"));
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains(":status: 200").contains(":status: 404").contains("Hello, World!")
                .contains("GOAWAY");
    }

    @Test
    void h2loadSmokeRun() throws Exception {
        String h2load = ExternalTool.find("h2load", "apt-get install nghttp2-client").toString();
        ExternalTool.Result result = ExternalTool.run(120, List.of(h2load, "-n", "2000", "-c", "4", "-m", "16",
                base + "/plaintext"));
        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.output()).contains("2000 succeeded, 0 failed, 0 errored");
    }
}
