package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.handler.codec.http.HttpClientCodec;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http.HttpServerKeepAliveHandler;
import io.weir.handler.codec.http.multipart.HttpPostDecoderConfig;
import io.weir.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.weir.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.weir.handler.codec.http.websocketx.PerMessageDeflateConfig;
import io.weir.handler.codec.http.websocketx.TextWebSocketFrame;
import io.weir.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.weir.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.weir.handler.codec.http.websocketx.WebSocketCloseStatus;
import io.weir.handler.codec.http.websocketx.WebSocketConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link WebSocketRoute} in the example server's pipeline, as HttpServer installs it, over loopback. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WebSocketRouteTest {
    private EventLoopGroup group;
    private Channel server;
    private InetSocketAddress address;

    @BeforeEach
    void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        StaticFileHandler staticFiles = new StaticFileHandler(null);
        var uploads = UploadHandler.newFactory(null, 1 << 20);
        HttpServerHandler handler = new HttpServerHandler();
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        // HttpServer's pipeline with the route added after the aggregator.
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(),
                                staticFiles.newConnectionHandler(),
                                UploadHandler.newConnectionHandler(uploads, new HttpPostDecoderConfig()),
                                new HttpObjectAggregator(HttpServer.MAX_CONTENT_LENGTH_BYTES),
                                WebSocketRoute.newUpgradeHandler(), WebSocketRoute.newEchoHandler(), handler);
                    }
                }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        address = (InetSocketAddress) server.localAddress();
    }

    @AfterEach
    void stop() throws Exception {
        server.close().sync();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    @Test
    void pageIsServedAndOtherRoutesStillWork() throws Exception {
        try (RawHttp http = new RawHttp(address)) {
            RawHttp.Response page = http.send("GET", "/ws.html");
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.header("content-type")).startsWith("text/html");
            assertThat(page.bodyText()).contains("new WebSocket(").contains("/ws'");
            RawHttp.Response plain = http.send("GET", "/plaintext");
            assertThat(plain.status()).isEqualTo(200);
            assertThat(plain.bodyText()).isEqualTo("Hello, World!");
        }
    }

    @Test
    void plainGetOfTheEndpointIsRefusedWithAReason() throws Exception {
        try (RawHttp http = new RawHttp(address)) {
            RawHttp.Response r = http.send("GET", "/ws");
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.bodyText()).contains("Upgrade");
        }
    }

    /** Collects what the client reads. */
    static final class Collector implements ChannelHandler {
        final LinkedBlockingQueue<Object> messages = new LinkedBlockingQueue<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            messages.add(msg);
        }
    }

    @Test
    void echoesTextAndBinaryWithCompression() throws Exception {
        WebSocketClientHandshaker hs = new WebSocketClientHandshaker(
                URI.create("ws://127.0.0.1:" + address.getPort() + WebSocketRoute.PATH), List.of(), null,
                new WebSocketConfig(), new PerMessageDeflateConfig());
        WebSocketClientProtocolHandler ws = new WebSocketClientProtocolHandler(hs);
        Collector collector = new Collector();
        Channel ch = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel c) {
                        c.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(8192), ws, collector);
                    }
                }).connect(address).sync().channel();
        assertThat(ws.handshakeFuture().await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ws.handshakeFuture().isSuccess()).isTrue();
        assertThat(hs.extensions()).isEqualTo("permessage-deflate");
        ch.writeAndFlush(new TextWebSocketFrame("Hello, Weir!"));
        byte[] data = new byte[50_000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i % 7);
        }
        ch.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(data)));
        TextWebSocketFrame t = (TextWebSocketFrame) collector.messages.poll(10, TimeUnit.SECONDS);
        BinaryWebSocketFrame b = (BinaryWebSocketFrame) collector.messages.poll(10, TimeUnit.SECONDS);
        try {
            assertThat(t.text()).isEqualTo("Hello, Weir!");
            assertThat(ByteBufUtil.getBytes(b.content())).isEqualTo(data);
        } finally {
            t.release();
            b.release();
        }
        ch.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.NORMAL_CLOSURE, ""));
        CloseWebSocketFrame answer = (CloseWebSocketFrame) collector.messages.poll(10, TimeUnit.SECONDS);
        assertThat(answer.statusCode()).isEqualTo(1000);
        answer.release();
        assertThat(ch.closeFuture().await(10, TimeUnit.SECONDS)).isTrue();
    }
}
