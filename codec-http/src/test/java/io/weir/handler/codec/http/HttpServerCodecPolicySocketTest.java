package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.SimpleChannelInboundHandler;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code new HttpServerCodec(policy)} as the only protocol handler of a real NIO server, driven by a plain socket
 * client: the timeouts and keep-alive work on a real connection, with its real graceful close. The head timeout is
 * short (300 ms) so the slowloris case is quick; every read on the client has a 10 s bound, so a server that never
 * answers fails the test rather than hanging it.
 */
class HttpServerCodecPolicySocketTest {
    private static final int CLIENT_READ_TIMEOUT_MILLIS = 10_000;
    private static final HttpServerPolicy POLICY = HttpServerPolicy.builder()
            .requestHeadTimeout(Duration.ofMillis(300))
            .linger(Duration.ofMillis(500), 64 * 1024)
            .build();

    private static EventLoopGroup group;
    private static Channel server;

    @BeforeAll
    static void start() throws InterruptedException {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(POLICY), new HttpObjectAggregator(1024),
                                new Hello());
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }

    @AfterAll
    static void stop() {
        server.close().syncUninterruptibly();
        group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static final class Hello extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void messageReceived(ChannelHandlerContext ctx, FullHttpRequest req) {
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.copiedBuffer("hello " + req.uri(), StandardCharsets.US_ASCII));
            HttpUtil.setContentLength(res, res.content().readableBytes());
            ctx.writeAndFlush(res);
        }
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(server.localAddress(), CLIENT_READ_TIMEOUT_MILLIS);
        socket.setSoTimeout(CLIENT_READ_TIMEOUT_MILLIS);
        return socket;
    }

    /** Everything the server sends until it closes its output (a read timeout fails the test). */
    private static String readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        in.transferTo(out);
        return out.toString(StandardCharsets.ISO_8859_1);
    }

    /** Reads until the response ending with {@code lastBody} has arrived (the server keeps the connection open). */
    private static String readResponses(InputStream in, String lastBody) throws IOException {
        StringBuilder sb = new StringBuilder();
        byte[] buf = new byte[1024];
        while (!sb.toString().endsWith(lastBody)) {
            int n = in.read(buf);
            if (n < 0) {
                break;
            }
            sb.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
        }
        return sb.toString();
    }

    @Test
    void slowlorisHeadIsAnswered408AndTheConnectionEnds() throws IOException {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write("GET /slow HTTP/1.1\r\nHost: example.com\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = readToEnd(socket.getInputStream());
            assertThat(answer).startsWith("HTTP/1.1 408 Request Timeout").containsIgnoringCase("connection: close");
        }
    }

    @Test
    void keptAliveConnectionServesSeveralRequestsThenConnectionCloseEndsIt() throws IOException {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write("GET /a HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readResponses(in, "hello /a")).startsWith("HTTP/1.1 200 OK")
                    .doesNotContainIgnoringCase("connection: close");
            out.write("GET /b HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readResponses(in, "hello /b")).as("the same connection serves again").startsWith("HTTP/1.1 200");
            out.write("GET /c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readToEnd(in)).as("answered, then the server closes").startsWith("HTTP/1.1 200 OK")
                    .containsIgnoringCase("connection: close").endsWith("hello /c");
        }
    }
}
