package io.weir.example.hello;

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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The README's "Use Weir in your project" server: the README shows this file verbatim, and it serves. */
class HelloServerTest {
    private static final Path SOURCE = Path.of("src/main/java/io/weir/example/hello/HelloServer.java");
    private static final Path README = Path.of("../README.md");

    @Test
    void theReadmeShowsTheServerExactlyAsItIsCompiled() throws Exception {
        String source = Files.readString(SOURCE);
        String readme = Files.readString(README);
        assertThat(readme).as("README.md must show HelloServer.java verbatim in a java code block")
                .contains("```java\n" + source + "```\n");
    }

    @Test
    void servesHelloOverKeepAlive() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            Channel server = HelloServer.start(group, 0);
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(30)).build();
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> response = client.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/any/path"))
                                .timeout(Duration.ofSeconds(30)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.body()).isEqualTo("Hello, Weir!\n");
                assertThat(response.headers().firstValue("content-length")).hasValue("13");
            }
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }
}
