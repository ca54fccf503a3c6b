package io.weir.handler.codec.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.handler.codec.http.DefaultFullHttpRequest;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpClientCodec;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http2.Http2ClientUpgradeHandler.UpgradeEvent;
import io.weir.util.ReferenceCountUtil;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Weir's h2c Upgrade client against a real server that offers it: h2o, serving a static file over loopback.
 * The request goes out as HTTP/1.1 with Upgrade: h2c; h2o answers 101 and the response on stream 1; a second
 * request then runs as stream 3 of the same connection.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Http2ClientUpgradeH2oInteropTest {
    static final String INSTALL = "apt-get install -y h2o";
    private static final String BODY = "Hello, World!";

    private static EventLoopGroup group;
    private static Process h2o;
    private static Path dir;
    private static int port;

    @BeforeAll
    static void startH2o() throws Exception {
        dir = Files.createTempDirectory("weir-h2o-", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        Path file = Files.writeString(dir.resolve("plaintext.txt"), BODY);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        // h2o refuses to run as root unless told which user to drop to.
        String user = "root".equals(System.getProperty("user.name")) ? "user: nobody\n" : "";
        Path conf = Files.writeString(dir.resolve("h2o.conf"), "listen:\n  port: " + port + "\n  host: 127.0.0.1\n"
                + "num-threads: 1\n" + user + "hosts:\n  default:\n    paths:\n      /plaintext:\n        file.file: "
                + file + "\n");
        try {
            h2o = new ProcessBuilder("h2o", "-c", conf.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            fail("h2o is missing; install it with: " + INSTALL);
            return;
        }
        CompletableFuture<Boolean> ready = CompletableFuture.supplyAsync(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(h2o.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.contains("ready to serve requests")) {
                        return true;
                    }
                }
                return false;
            } catch (IOException e) {
                return false;
            }
        });
        assertThat(ready.get(30, TimeUnit.SECONDS)).as("h2o started (" + conf + ")").isTrue();
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    @AfterAll
    static void stop() throws Exception {
        if (h2o != null) {
            h2o.destroy();
            if (!h2o.waitFor(15, TimeUnit.SECONDS)) {
                h2o.destroyForcibly();
            }
        }
        if (group != null) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
        if (dir != null) {
            try (var files = Files.list(dir)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    Files.deleteIfExists(p);
                }
            }
            Files.deleteIfExists(dir);
        }
    }

    /** Queues aggregated responses as "status body" and user events as themselves. */
    private static final class Queue implements ChannelHandler {
        final LinkedBlockingQueue<Object> seen = new LinkedBlockingQueue<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof FullHttpResponse r) {
                seen.add(r.status().code() + " " + r.content().toString(StandardCharsets.UTF_8));
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            seen.add(evt);
        }
    }

    private static ChannelInitializer<Channel> responsesTo(Queue queue) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(false, "http"),
                        new HttpObjectAggregator(4096), queue);
            }
        };
    }

    private static FullHttpRequest get() {
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/plaintext");
        request.headers().set("Host", "127.0.0.1:" + port);
        return request;
    }

    @Test
    void upgradesToH2cWithH2oAndKeepsTheConnectionForTheNextStream() throws Exception {
        Queue stream1 = new Queue();
        Queue connection = new Queue();
        Channel ch = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel c) {
                        c.pipeline().addLast(new HttpClientCodec(), new Http2ClientUpgradeHandler(
                                Http2FrameCodecBuilder.forClient(), responsesTo(stream1)), connection);
                    }
                })
                .connect("127.0.0.1", port).sync().channel();
        try {
            ch.writeAndFlush(get()).sync();
            assertThat(stream1.seen.poll(30, TimeUnit.SECONDS)).isEqualTo("200 " + BODY);
            assertThat(connection.seen.poll(30, TimeUnit.SECONDS)).isEqualTo(UpgradeEvent.UPGRADE_SUCCESSFUL);
            assertThat(ch.pipeline().get(Http2FrameCodec.class)).isNotNull();
            assertThat(ch.pipeline().get(HttpClientCodec.class)).isNull();

            Queue stream3 = new Queue();
            Http2StreamChannel next = new Http2StreamChannelBootstrap(ch).handler(responsesTo(stream3)).open()
                    .get(30, TimeUnit.SECONDS);
            next.writeAndFlush(get()).sync();
            assertThat(stream3.seen.poll(30, TimeUnit.SECONDS)).isEqualTo("200 " + BODY);
            assertThat(next.stream().id()).isEqualTo(3);
        } finally {
            ch.close().sync();
        }
    }
}
