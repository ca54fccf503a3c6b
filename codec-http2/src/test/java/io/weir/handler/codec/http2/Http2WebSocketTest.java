package io.weir.handler.codec.http2;

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
import io.weir.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.weir.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.weir.handler.codec.http.websocketx.PerMessageDeflateConfig;
import io.weir.handler.codec.http.websocketx.TextWebSocketFrame;
import io.weir.handler.codec.http.websocketx.WebSocketClientHandshaker;
import io.weir.handler.codec.http.websocketx.WebSocketConfig;
import io.weir.handler.codec.http.websocketx.WebSocketHandshakeException;
import io.weir.handler.codec.http.websocketx.WebSocketServerHandshakeCompleted;
import io.weir.handler.codec.http.websocketx.WebSocketServerHandshaker;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Weir's WebSocket client and server over h2c on real sockets (RFC 8441), several WebSockets per connection. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2WebSocketTest {
    private static EventLoopGroup group;

    @BeforeAll
    static void start() {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    }

    @AfterAll
    static void stop() throws Exception {
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    /** Collects what a stream reads and the events it sees. */
    static final class Collector implements ChannelHandler {
        final BlockingQueue<Object> messages = new LinkedBlockingQueue<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            messages.add(msg);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            messages.add(evt);
        }

        /** Releases what was not taken (a close frame answered after the test looked). */
        void releaseAll() {
            Object o;
            while ((o = messages.poll()) != null) {
                ReferenceCountUtil.release(o);
            }
        }

        Object next() throws InterruptedException {
            Object o = messages.poll(20, TimeUnit.SECONDS);
            assertThat(o).as("a message within 20 s").isNotNull();
            return o;
        }
    }

    /** Echoes data frames and records the handshake event. */
    static final class ServerEcho implements ChannelHandler {
        final BlockingQueue<Object> events;

        ServerEcho(BlockingQueue<Object> events) {
            this.events = events;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof TextWebSocketFrame || msg instanceof BinaryWebSocketFrame) {
                ctx.writeAndFlush(msg);
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            events.add(evt);
        }
    }

    private static Channel server(boolean enabled, BlockingQueue<Object> events) throws InterruptedException {
        Http2FrameCodecBuilder codec = Http2FrameCodecBuilder.forServer();
        if (enabled) {
            codec.initialSettings(new Http2Settings().connectProtocolEnabled(true));
        }
        WebSocketServerHandshaker handshaker = new WebSocketServerHandshaker(List.of(), origin -> true,
                new WebSocketConfig(), new PerMessageDeflateConfig());
        Http2ServerInitializer http2 = new Http2ServerInitializer(codec, new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new Http2WebSocketServerHandler("/ws", handshaker, new ServerEcho(events)));
            }
        });
        return new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        http2.install(ch);
                    }
                }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
    }

    private static Channel connect(Channel server) throws InterruptedException {
        return new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(Http2FrameCodecBuilder.forClient().build(),
                                new Http2MultiplexHandler(new ChannelHandler() { }));
                    }
                }).connect(server.localAddress()).sync().channel();
    }

    /** Opens a WebSocket stream on {@code connection}; returns its handler once the handshake is over. */
    private static Http2WebSocketClientHandler open(Channel connection, boolean compression, Collector collector)
            throws Exception {
        return open(connection, "/ws", compression, collector);
    }

    private static Http2WebSocketClientHandler open(Channel connection, String path, boolean compression,
            Collector collector) throws Exception {
        int port = ((InetSocketAddress) connection.remoteAddress()).getPort();
        WebSocketClientHandshaker hs = new WebSocketClientHandshaker(URI.create("ws://127.0.0.1:" + port + path),
                List.of(), null, new WebSocketConfig(), compression ? new PerMessageDeflateConfig() : null);
        Http2WebSocketClientHandler handler = new Http2WebSocketClientHandler(hs);
        new Http2StreamChannelBootstrap(connection).handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(handler, collector);
            }
        }).open().get(10, TimeUnit.SECONDS);
        return handler;
    }

    @ParameterizedTest(name = "compression={0}")
    @ValueSource(booleans = {false, true})
    void textBinaryAndCloseOverH2c(boolean compression) throws Exception {
        BlockingQueue<Object> serverEvents = new LinkedBlockingQueue<>();
        Channel server = server(true, serverEvents);
        Channel connection = connect(server);
        Collector collector = new Collector();
        Collector second = new Collector();
        try {
            Http2WebSocketClientHandler handler = open(connection, compression, collector);
            assertThat(handler.handshakeFuture().await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(handler.handshakeFuture().isSuccess()).as("%s", handler.handshakeFuture().cause()).isTrue();
            Channel stream = handler.handshakeFuture().channel();
            assertThat(handler.handshaker().extensions()).satisfies(e -> {
                if (compression) {
                    assertThat(e).startsWith("permessage-deflate");
                } else {
                    assertThat(e).isNull();
                }
            });
            Object completed = serverEvents.poll(20, TimeUnit.SECONDS);
            assertThat(completed).isInstanceOf(WebSocketServerHandshakeCompleted.class);
            assertThat(((WebSocketServerHandshakeCompleted) completed).requestUri()).isEqualTo("/ws");
            assertThat(collector.next()).isNotNull(); // HANDSHAKE_COMPLETE

            String text = "héllo over HTTP/2 ".repeat(200);
            stream.writeAndFlush(new TextWebSocketFrame(text));
            TextWebSocketFrame echoed = (TextWebSocketFrame) collector.next();
            assertThat(echoed.text()).isEqualTo(text);
            echoed.release();

            byte[] bytes = new byte[100_000]; // several DATA frames and more than the initial stream window
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (i * 31);
            }
            stream.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(bytes)));
            BinaryWebSocketFrame binary = (BinaryWebSocketFrame) collector.next();
            assertThat(ByteBufUtil.getBytes(binary.content())).isEqualTo(bytes);
            binary.release();

            stream.writeAndFlush(new CloseWebSocketFrame(1000, "bye"));
            CloseWebSocketFrame close = (CloseWebSocketFrame) collector.next();
            assertThat(close.statusCode()).isEqualTo(1000);
            close.release();
            // The server ends its side (RFC 8441 §6), the client answers: the stream closes, not the connection.
            assertThat(stream.closeFuture().await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(connection.isActive()).isTrue();

            // A second WebSocket on the same connection.
            Http2WebSocketClientHandler again = open(connection, compression, second);
            assertThat(again.handshakeFuture().await(20, TimeUnit.SECONDS)).isTrue();
            second.next();
            again.handshakeFuture().channel().writeAndFlush(new TextWebSocketFrame("again"));
            TextWebSocketFrame echo2 = (TextWebSocketFrame) second.next();
            assertThat(echo2.text()).isEqualTo("again");
            echo2.release();
            // A close the server answers with another status ends the stream too.
            Channel secondStream = again.handshakeFuture().channel();
            secondStream.writeAndFlush(new CloseWebSocketFrame(1001, "going"));
            assertThat(secondStream.closeFuture().await(20, TimeUnit.SECONDS)).isTrue();
        } finally {
            connection.close().sync();
            server.close().sync();
            collector.releaseAll();
            second.releaseAll();
        }
    }

    @Test
    void clientDoesNotSendExtendedConnectUnlessTheServerEnabledIt() throws Exception {
        Channel server = server(false, new LinkedBlockingQueue<>());
        Channel connection = connect(server);
        try {
            Collector collector = new Collector();
            Http2WebSocketClientHandler handler = open(connection, false, collector);
            assertThat(handler.handshakeFuture().await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(handler.handshakeFuture().cause()).isInstanceOf(WebSocketHandshakeException.class)
                    .hasMessageContaining("SETTINGS_ENABLE_CONNECT_PROTOCOL");
            assertThat(connection.isActive()).isTrue();
        } finally {
            connection.close().sync();
            server.close().sync();
        }
    }

    @Test
    void refusedHandshakeFailsTheClientWithTheStatus() throws Exception {
        Channel server = server(true, new LinkedBlockingQueue<>());
        Channel connection = connect(server);
        try {
            Http2WebSocketClientHandler handler = open(connection, "/nowhere", false, new Collector());
            assertThat(handler.handshakeFuture().await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(handler.handshakeFuture().cause()).isInstanceOf(WebSocketHandshakeException.class)
                    .hasMessageContaining("404");
            assertThat(((WebSocketHandshakeException) handler.handshakeFuture().cause()).httpStatus())
                    .isEqualTo(404);
            assertThat(handler.handshakeFuture().channel().closeFuture().await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(connection.isActive()).as("a refused stream leaves the connection up").isTrue();
        } finally {
            connection.close().sync();
            server.close().sync();
        }
    }

    @Test
    void codecRefusesToWriteExtendedConnectBeforeTheSetting() throws Exception {
        Channel server = server(false, new LinkedBlockingQueue<>());
        Channel connection = connect(server);
        try {
            Http2StreamChannel stream = new Http2StreamChannelBootstrap(connection).handler(new ChannelHandler() { })
                    .open().get(10, TimeUnit.SECONDS);
            Http2Headers h = new Http2Headers().method("CONNECT").protocol("websocket").scheme("http")
                    .authority("127.0.0.1").path("/ws");
            var written = stream.writeAndFlush(new Http2HeadersFrame(h, false));
            assertThat(written.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(written.cause()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("RFC 8441");
        } finally {
            connection.close().sync();
            server.close().sync();
        }
    }
}
