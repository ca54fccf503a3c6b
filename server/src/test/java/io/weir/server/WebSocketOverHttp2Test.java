package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.weir.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.weir.handler.codec.http.websocketx.PerMessageDeflateConfig;
import io.weir.handler.codec.http.websocketx.TextWebSocketFrame;
import io.weir.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.weir.handler.codec.http.websocketx.WebSocketConfig;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2StreamChannel;
import io.weir.handler.codec.http2.Http2StreamChannelBootstrap;
import io.weir.handler.codec.http2.Http2WebSocketClientHandler;
import io.weir.handler.ssl.ApplicationProtocolNames;
import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.handler.ssl.SslContext;
import io.weir.handler.ssl.SslContextBuilder;
import io.weir.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The example server's {@code /ws} over HTTP/2 (RFC 8441), on its h2c port and its TLS port (h2 by ALPN), with
 * Weir's HTTP/2 WebSocket client: text, binary, compression and the close handshake, and a plain request on the
 * same connection.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WebSocketOverHttp2Test {
    private static EventLoopGroup group;
    private static HttpServer server;
    private static InetSocketAddress plain;
    private static InetSocketAddress secure;
    private static SslContext clientTls;

    @BeforeAll
    static void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        SelfSignedCertificate cert = SelfSignedCertificate.create("localhost");
        server = new HttpServer(group).tls(SslContextBuilder.forServer(cert.privateKey(), cert.certificate())
                .applicationProtocols(ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1).build());
        plain = (InetSocketAddress) server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .localAddress();
        secure = (InetSocketAddress) server.startTls(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .localAddress();
        clientTls = SslContextBuilder.forClient().trustManager(cert.certificate())
                .applicationProtocols(ApplicationProtocolNames.HTTP_2).build();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    /** Collects what a stream reads. */
    static final class Collector implements ChannelHandler {
        final BlockingQueue<Object> messages = new LinkedBlockingQueue<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            messages.add(msg);
        }

        <T> T next(Class<T> type) throws InterruptedException {
            Object o = messages.poll(30, TimeUnit.SECONDS);
            assertThat(o).as("a message within 30 s").isInstanceOf(type);
            return type.cast(o);
        }

        void releaseAll() {
            Object o;
            while ((o = messages.poll()) != null) {
                ReferenceCountUtil.release(o);
            }
        }
    }

    private static Channel connect(boolean tls) throws Exception {
        return Http2TestClient.connect(group, tls ? secure : plain, tls ? clientTls : null);
    }

    @ParameterizedTest(name = "tls={0}, compression={1}")
    @CsvSource({"false, false", "false, true", "true, false", "true, true"})
    void echoOverHttp2(boolean tls, boolean compression) throws Exception {
        Channel connection = connect(tls);
        Collector ws = new Collector();
        Collector page = new Collector();
        try {
            URI uri = URI.create((tls ? "wss" : "ws") + "://localhost:" + (tls ? secure : plain).getPort()
                    + WebSocketRoute.PATH);
            Http2WebSocketClientHandler client = new Http2WebSocketClientHandler(new WebSocketClientHandshaker(uri,
                    List.of(), null, new WebSocketConfig(), compression ? new PerMessageDeflateConfig() : null));
            new Http2StreamChannelBootstrap(connection).handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(client, ws);
                }
            }).open().get(30, TimeUnit.SECONDS);
            assertThat(client.handshakeFuture().await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(client.handshakeFuture().isSuccess()).as("%s", client.handshakeFuture().cause()).isTrue();
            if (compression) {
                assertThat(client.handshaker().extensions()).startsWith("permessage-deflate");
            } else {
                assertThat(client.handshaker().extensions()).isNull();
            }
            Channel stream = client.handshakeFuture().channel();

            stream.writeAndFlush(new TextWebSocketFrame("Hello, Weir over HTTP/2!"));
            TextWebSocketFrame text = ws.next(TextWebSocketFrame.class);
            assertThat(text.text()).isEqualTo("Hello, Weir over HTTP/2!");
            text.release();

            byte[] bytes = new byte[200_000];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (i % 251);
            }
            stream.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(bytes)));
            BinaryWebSocketFrame binary = ws.next(BinaryWebSocketFrame.class);
            assertThat(ByteBufUtil.getBytes(binary.content())).isEqualTo(bytes);
            binary.release();

            // A plain request on another stream of the same connection still reaches the HTTP routes.
            Http2StreamChannel plainStream = new Http2StreamChannelBootstrap(connection).handler(page).open()
                    .get(30, TimeUnit.SECONDS);
            plainStream.writeAndFlush(new Http2HeadersFrame(new Http2Headers().method("GET")
                    .scheme(tls ? "https" : "http").authority("localhost").path(WebSocketRoute.PAGE_PATH), true));
            Http2HeadersFrame head = page.next(Http2HeadersFrame.class);
            assertThat(head.headers().status().toString()).isEqualTo("200");

            stream.writeAndFlush(new CloseWebSocketFrame(1000, "done"));
            CloseWebSocketFrame close = ws.next(CloseWebSocketFrame.class);
            assertThat(close.statusCode()).isEqualTo(1000);
            close.release();
            assertThat(stream.closeFuture().await(30, TimeUnit.SECONDS)).as("the stream ends after the close")
                    .isTrue();
            assertThat(connection.isActive()).isTrue();
        } finally {
            connection.close().sync();
            ws.releaseAll();
            page.releaseAll();
        }
    }
}
