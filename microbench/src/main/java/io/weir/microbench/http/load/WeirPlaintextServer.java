package io.weir.microbench.http.load;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpHeaderValues;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.util.AsciiString;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;

/**
 * Weir's half of the plaintext load test run by {@code microbench/wrk-compare}: the same logic as
 * {@link NettyPlaintextServer}. Every request (any path) is answered with {@code Hello, World!} as
 * TechEmpower's plaintext test does; responses to pipelined requests are written as they are decoded and
 * flushed once per read.
 *
 * <p>Usage: {@code java -cp microbenchmarks.jar io.weir.microbench.http.load.WeirPlaintextServer
 * [--port 8080] [--transport nio|epoll|io_uring] [--threads 1]}; prints one line when it listens.
 */
public final class WeirPlaintextServer {
    static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    // The same on both servers, so both send byte-identical responses (same length, same work).
    private static final AsciiString SERVER = AsciiString.cached(LoadServerArgs.SERVER_HEADER);
    private static final AsciiString CONTENT_LENGTH = AsciiString.cached(Integer.toString(BODY.length));

    private WeirPlaintextServer() {
    }

    public static void main(String[] args) throws Exception {
        LoadServerArgs options = LoadServerArgs.parse(args);
        WeirLoadTransport transport = WeirLoadTransport.of(options.transport());
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(options.threads(), transport.io());
        // Shared by every response through retained duplicates, as in NettyPlaintextServer.
        ByteBuf body = Unpooled.directBuffer(BODY.length).writeBytes(BODY);
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new Handler(body));
                        }
                    })
                    .bind(options.port()).sync().channel();
            System.out.println("weir plaintext server on " + server.localAddress() + " ("
                    + options.transport().label() + ", " + options.threads() + " thread(s))");
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
            body.release();
        }
    }

    /** Answers each request as described above; shared with {@code PlaintextPipelineBenchmark}. */
    static final class Handler implements ChannelHandler {
        private final ByteBuf body;

        Handler(ByteBuf body) {
            this.body = body;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest request) {
                boolean keepAlive = HttpUtil.isKeepAlive(request);
                FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                        body.retainedDuplicate());
                response.headers()
                        .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                        .set(HttpHeaderNames.SERVER, SERVER)
                        .set(HttpHeaderNames.CONTENT_LENGTH, CONTENT_LENGTH);
                if (keepAlive) {
                    ctx.write(response, ctx.voidPromise());
                } else {
                    ctx.write(response).addListener(ChannelFutureListener.CLOSE);
                }
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
