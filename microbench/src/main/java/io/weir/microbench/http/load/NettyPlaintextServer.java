package io.weir.microbench.http.load;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;

/**
 * Netty 4.2's half of the plaintext load test: the same logic as {@link WeirPlaintextServer}, written with
 * Netty's API. Every request (any path) is answered with {@code Hello, World!} as TechEmpower's plaintext test
 * does; responses to pipelined requests are written as they are decoded and flushed once per read.
 *
 * <p>Usage: {@code java -cp microbenchmarks.jar io.weir.microbench.http.load.NettyPlaintextServer
 * [--port 8080] [--transport nio|epoll|io_uring] [--threads 1]}; prints one line when it listens.
 */
public final class NettyPlaintextServer {
    private static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    // The same on both servers, so both send byte-identical responses (same length, same work).
    private static final AsciiString SERVER = AsciiString.cached(LoadServerArgs.SERVER_HEADER);
    private static final AsciiString CONTENT_LENGTH = AsciiString.cached(Integer.toString(BODY.length));

    private NettyPlaintextServer() {
    }

    public static void main(String[] args) throws Exception {
        LoadServerArgs options = LoadServerArgs.parse(args);
        NettyLoadTransport transport = NettyLoadTransport.of(options.transport());
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(options.threads(), transport.io());
        // Shared by every response through retained duplicates, as in WeirPlaintextServer.
        ByteBuf body = Unpooled.directBuffer(BODY.length).writeBytes(BODY);
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new Handler(body));
                        }
                    })
                    .bind(options.port()).sync().channel();
            System.out.println("netty plaintext server on " + server.localAddress() + " ("
                    + options.transport().label() + ", " + options.threads() + " thread(s))");
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
            body.release();
        }
    }

    /** Answers each request as described above; shared with {@code PlaintextPipelineBenchmark}. */
    static final class Handler extends ChannelInboundHandlerAdapter {
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
