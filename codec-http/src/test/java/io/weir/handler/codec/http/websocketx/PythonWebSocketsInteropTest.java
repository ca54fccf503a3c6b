package io.weir.handler.codec.http.websocketx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

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
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Interop with a real peer: the Python {@code websockets} package as a client of Weir's echo server and as an echo
 * server for Weir's client, with and without permessage-deflate, over loopback sockets.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PythonWebSocketsInteropTest {
    static final String INSTALL = "python3 -m pip install --break-system-packages websockets";
    private static EventLoopGroup group;

    @BeforeAll
    static void checkPeer() throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("python3", "-c", "import websockets.asyncio.client").redirectErrorStream(true)
                    .start();
        } catch (java.io.IOException e) {
            fail("python3 is missing; install it and the peer with: apt-get install -y python3 python3-pip && "
                    + INSTALL);
            return;
        }
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail("the Python websockets package (>= 13) is missing; install it with: " + INSTALL);
        }
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    }

    @AfterAll
    static void stop() throws Exception {
        if (group != null) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    private static Path script(String name) throws Exception {
        return Path.of(PythonWebSocketsInteropTest.class.getResource(name).toURI());
    }

    /** Echoes data frames back (the frame is handed on to the write, which releases it). */
    static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof WebSocketFrame f && !(f instanceof CloseWebSocketFrame)) {
                ctx.writeAndFlush(msg);
            } else {
                io.weir.util.ReferenceCountUtil.release(msg);
            }
        }
    }

    @ParameterizedTest(name = "compression={0}")
    @ValueSource(booleans = {false, true})
    void pythonClientAgainstWeirServer(boolean compression) throws Exception {
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(65536),
                                new WebSocketServerProtocolHandler("/ws", new WebSocketConfig()
                                        .setMaxMessageBytes(1 << 21).setMaxFramePayloadBytes(1 << 21))
                                        .compression(compression ? new PerMessageDeflateConfig() : null),
                                new Echo());
                    }
                }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        try {
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            Process py = new ProcessBuilder("python3", script("ws_client.py").toString(),
                    "ws://127.0.0.1:" + port + "/ws", compression ? "deflate" : "none").redirectErrorStream(true)
                    .start();
            String out = new String(py.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(py.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(py.exitValue()).as(out).isZero();
            assertThat(out).contains("OK").contains("close code: 1000");
            assertThat(out).contains(compression ? "extensions: permessage-deflate" : "extensions: None");
        } finally {
            server.close().sync();
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

    @ParameterizedTest(name = "compression={0}")
    @ValueSource(booleans = {false, true})
    void weirClientAgainstPythonServer(boolean compression) throws Exception {
        Process py = new ProcessBuilder("python3", script("ws_server.py").toString(),
                compression ? "deflate" : "none").redirectErrorStream(true).start();
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(py.getInputStream(), StandardCharsets.UTF_8));
            String line = r.readLine();
            assertThat(line).as("the Python server's port").isNotNull().matches("\\d+");
            int port = Integer.parseInt(line);
            WebSocketClientHandshaker hs = new WebSocketClientHandshaker(URI.create("ws://127.0.0.1:" + port + "/"),
                    List.of(), null, new WebSocketConfig(), compression ? new PerMessageDeflateConfig() : null);
            WebSocketClientProtocolHandler handler = new WebSocketClientProtocolHandler(hs);
            Collector collector = new Collector();
            Channel ch = new Bootstrap().group(group).channel(NioSocketChannel.class)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel c) {
                            c.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(65536), handler,
                                    collector);
                        }
                    }).connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)).sync().channel();
            assertThat(handler.handshakeFuture().await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(handler.handshakeFuture().isSuccess()).as("%s", handler.handshakeFuture().cause()).isTrue();
            if (compression) {
                assertThat(hs.extensions()).startsWith("permessage-deflate");
            } else {
                assertThat(hs.extensions()).isNull();
            }
            String text = "κόσμε ✓ ".repeat(5000);
            byte[] binary = new byte[300_000];
            ThreadLocalRandom.current().nextBytes(binary);
            ch.writeAndFlush(new TextWebSocketFrame(text));
            ch.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(binary)));
            ch.writeAndFlush(new TextWebSocketFrame(false, 0, Unpooled.copiedBuffer("a-", StandardCharsets.UTF_8)));
            ch.writeAndFlush(new ContinuationWebSocketFrame(true, 0, Unpooled.copiedBuffer("b", StandardCharsets.UTF_8)));
            TextWebSocketFrame t = (TextWebSocketFrame) collector.messages.poll(10, TimeUnit.SECONDS);
            BinaryWebSocketFrame b = (BinaryWebSocketFrame) collector.messages.poll(10, TimeUnit.SECONDS);
            TextWebSocketFrame frag = (TextWebSocketFrame) collector.messages.poll(10, TimeUnit.SECONDS);
            try {
                assertThat(t.text()).isEqualTo(text);
                assertThat(ByteBufUtil.getBytes(b.content())).isEqualTo(binary);
                assertThat(frag.text()).isEqualTo("a-b");
            } finally {
                t.release();
                b.release();
                frag.release();
            }
            ch.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.NORMAL_CLOSURE, "done"));
            CloseWebSocketFrame answer = (CloseWebSocketFrame) collector.messages.poll(10, TimeUnit.SECONDS);
            assertThat(answer.statusCode()).isEqualTo(1000);
            answer.release();
            // The server closes the TCP connection after the close handshake.
            assertThat(ch.closeFuture().await(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            py.destroy();
            py.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
