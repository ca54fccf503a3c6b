package io.weir.handler.codec.http2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.http.DefaultFullHttpRequest;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpClientCodec;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http.PrematureChannelClosureException;
import io.weir.handler.codec.http2.Http2ClientUpgradeHandler.UpgradeEvent;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class Http2ClientUpgradeHandlerTest {

    /** Collects what reaches the end of a pipeline: aggregated responses as "status body", events as themselves. */
    static final class Collect implements ChannelHandler {
        final List<Object> seen = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof FullHttpResponse r) {
                seen.add(r.status().code() + " " + r.content().toString(StandardCharsets.UTF_8));
            } else {
                seen.add(msg.getClass().getSimpleName());
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            seen.add(evt);
        }
    }

    private static FullHttpRequest get(String path) {
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, path);
        request.headers().set("Host", "h");
        return request;
    }

    private static ChannelInitializer<Channel> responsesTo(Collect collect) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(false, "http"),
                        new HttpObjectAggregator(4096), collect);
            }
        };
    }

    @Test
    void upgradeSwitchesToHttp2AndDeliversTheResponseOnStreamOne() throws Exception {
        Collect stream1 = new Collect();
        Collect connection = new Collect();
        EmbeddedChannel client = new EmbeddedChannel(new HttpClientCodec(),
                new Http2ClientUpgradeHandler(Http2FrameCodecBuilder.forClient(), responsesTo(stream1)), connection);
        EmbeddedChannel server = new EmbeddedChannel(Http2CleartextServerHandlerTest.handler());
        try {
            client.writeAndFlush(get("/up"));
            ByteBuf request = client.readOutbound();
            String head = request.toString(StandardCharsets.US_ASCII);
            assertThat(head).contains("upgrade: h2c").containsIgnoringCase("connection: Upgrade, HTTP2-Settings")
                    .containsIgnoringCase("http2-settings: ");
            server.writeInbound(request);
            for (int i = 0; i < 4; i++) {
                Http2FrameClient.pump(server, client);
                Http2FrameClient.pump(client, server);
            }
            assertThat(stream1.seen).hasSize(1);
            assertThat((String) stream1.seen.get(0)).startsWith("200 GET /up host=h");
            assertThat(connection.seen).contains(UpgradeEvent.UPGRADE_SUCCESSFUL);
            assertThat(client.pipeline().get(HttpClientCodec.class)).isNull();
            assertThat(client.pipeline().get(Http2ClientUpgradeHandler.class)).isNull();
            Http2FrameCodec codec = client.pipeline().get(Http2FrameCodec.class);
            assertThat(codec.activeStreams()).isZero();

            // The next request is an HTTP/2 stream of the same connection.
            Collect stream3 = new Collect();
            Http2StreamChannel next = new Http2StreamChannelBootstrap(client).handler(responsesTo(stream3)).open()
                    .get(5, TimeUnit.SECONDS);
            next.writeAndFlush(get("/second"));
            for (int i = 0; i < 4; i++) {
                Http2FrameClient.pump(client, server);
                Http2FrameClient.pump(server, client);
            }
            assertThat(next.stream().id()).isEqualTo(3);
            assertThat((String) stream3.seen.get(0)).startsWith("200 GET /second host=h");
        } finally {
            client.finishAndReleaseAll();
            server.finishAndReleaseAll();
        }
    }

    @Test
    void rejectedUpgradeKeepsHttp11Working() {
        Collect app = new Collect();
        EmbeddedChannel client = new EmbeddedChannel(new HttpClientCodec(),
                new Http2ClientUpgradeHandler(Http2FrameCodecBuilder.forClient(), new Collect()),
                new HttpObjectAggregator(4096), app);
        EmbeddedChannel server = new EmbeddedChannel(new HttpServerCodec(), new HttpObjectAggregator(4096),
                new Http2StreamFrameToHttpObjectCodecTest.Describe());
        try {
            client.writeAndFlush(get("/one"));
            Http2FrameClient.pump(client, server);
            Http2FrameClient.pump(server, client);
            assertThat(app.seen).hasSize(2);
            assertThat(app.seen.get(0)).isEqualTo(UpgradeEvent.UPGRADE_REJECTED);
            assertThat((String) app.seen.get(1)).startsWith("200 GET /one host=h");
            assertThat(client.pipeline().get(Http2ClientUpgradeHandler.class)).isNull();

            client.writeAndFlush(get("/two"));
            ByteBuf second = client.readOutbound();
            assertThat(second.toString(StandardCharsets.US_ASCII)).doesNotContainIgnoringCase("upgrade");
            server.writeInbound(second);
            Http2FrameClient.pump(server, client);
            assertThat((String) app.seen.get(2)).startsWith("200 GET /two host=h");
        } finally {
            client.finishAndReleaseAll();
            server.finishAndReleaseAll();
        }
    }

    @Test
    void requestWithABodyIsSentWithoutUpgrade() {
        EmbeddedChannel client = new EmbeddedChannel(new HttpClientCodec(),
                new Http2ClientUpgradeHandler(Http2FrameCodecBuilder.forClient(), new Collect()));
        try {
            FullHttpRequest post = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/p",
                    Unpooled.copiedBuffer("body", StandardCharsets.US_ASCII));
            HttpUtil.setContentLength(post, 4);
            client.writeAndFlush(post);
            StringBuilder sent = new StringBuilder();
            ByteBuf b;
            while ((b = client.readOutbound()) != null) {
                sent.append(b.toString(StandardCharsets.US_ASCII));
                b.release();
            }
            assertThat(sent.toString()).startsWith("POST /p HTTP/1.1").doesNotContainIgnoringCase("upgrade")
                    .endsWith("body");
            assertThat(client.pipeline().get(Http2ClientUpgradeHandler.class)).isNull();
        } finally {
            finishWithARequestUnanswered(client);
        }
    }

    @Test
    void requestPipelinedBehindTheUpgradeIsRefused() {
        EmbeddedChannel client = new EmbeddedChannel(new HttpClientCodec(),
                new Http2ClientUpgradeHandler(Http2FrameCodecBuilder.forClient(), new Collect()));
        try {
            client.writeAndFlush(get("/first"));
            ChannelFuture second = client.writeAndFlush(get("/second"));
            assertThat(second.cause()).isInstanceOf(IllegalStateException.class);
        } finally {
            finishWithARequestUnanswered(client);
        }
    }

    @Test
    void switchToAnotherProtocolClosesTheConnection() {
        EmbeddedChannel client = new EmbeddedChannel(new HttpClientCodec(),
                new Http2ClientUpgradeHandler(Http2FrameCodecBuilder.forClient(), new Collect()));
        try {
            client.writeAndFlush(get("/"));
            assertThatThrownBy(() -> client.writeInbound(Unpooled.copiedBuffer("HTTP/1.1 101 Switching Protocols"
                    + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n", StandardCharsets.US_ASCII)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("websocket");
            assertThat(client.isOpen()).isFalse();
        } finally {
            finishWithARequestUnanswered(client);
        }
    }

    @Test
    void settingsAreSentAsBase64Url() {
        Http2Settings settings = new Http2Settings().maxConcurrentStreams(100).initialWindowSize(65_535);
        String encoded = Http2ClientUpgradeHandler.encodeSettings(settings);
        assertThat(encoded).doesNotContain("=").doesNotContain("+").doesNotContain("/");
        assertThat(Http2ServerUpgradeHandler.decodeSettings(encoded)).isEqualTo(settings);
    }

    @Test
    void serverBuilderIsRefused() {
        assertThatThrownBy(() -> new Http2ClientUpgradeHandler(
                Http2FrameCodecBuilder.forServer(), new Collect())).isInstanceOf(IllegalArgumentException.class);
    }

    /** The HttpClientCodec reports the request that never got its response when the channel closes. */
    private static void finishWithARequestUnanswered(EmbeddedChannel client) {
        try {
            client.finishAndReleaseAll();
        } catch (PrematureChannelClosureException e) {
            assertThat(e).hasMessageContaining("still waiting for a response");
        }
    }
}
