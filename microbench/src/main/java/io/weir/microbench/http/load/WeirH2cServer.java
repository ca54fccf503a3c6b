package io.weir.microbench.http.load;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.ServerChannel;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.epoll.EpollServerSocketChannel;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2ServerInitializer;
import io.weir.util.AsciiString;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;

/**
 * Weir's half of the h2c load test run by {@code microbench/h2load-compare}: HTTP/2 by prior knowledge through
 * {@code Http2FrameCodec} and {@code Http2MultiplexHandler} (a child channel per stream), the same logic as
 * {@link NettyH2cMultiplexServer} and {@link NettyH2cConnectionHandlerServer}. Every request (any path) is answered
 * with the bytes of {@link WeirPlaintextServer}: status 200, {@code content-type: text/plain},
 * {@code server}, {@code content-length: 13} and {@code Hello, World!}. Each stream writes its response as the
 * request's HEADERS arrive; the multiplexer flushes once per read.
 *
 * <p>Usage: {@code java -cp microbenchmarks.jar io.weir.microbench.http.load.WeirH2cServer
 * [--port 8080] [--transport nio|epoll] [--threads 1]}; prints one line when it listens.
 */
public final class WeirH2cServer {
    static final byte[] BODY = "Hello, World!".getBytes(StandardCharsets.US_ASCII);
    private static final AsciiString STATUS_OK = AsciiString.cached("200");
    private static final AsciiString CONTENT_TYPE = AsciiString.cached("content-type");
    private static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain");
    private static final AsciiString SERVER = AsciiString.cached("server");
    private static final AsciiString SERVER_NAME = AsciiString.cached("weir");
    private static final AsciiString CONTENT_LENGTH = AsciiString.cached("content-length");
    private static final AsciiString BODY_LENGTH = AsciiString.cached(Integer.toString(BODY.length));

    private WeirH2cServer() {
    }

    public static void main(String[] args) throws Exception {
        LoadServerArgs options = LoadServerArgs.parse(args);
        boolean epoll = options.epoll();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> channelClass = epoll ? EpollServerSocketChannel.class
                : NioServerSocketChannel.class;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(options.threads(), io);
        ByteBuf body = Unpooled.directBuffer(BODY.length).writeBytes(BODY);
        Http2ServerInitializer h2 = new Http2ServerInitializer(Http2FrameCodecBuilder.forServer(),
                new StreamHandler(body));
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(channelClass)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            h2.install(ch);
                        }
                    })
                    .bind(options.port()).sync().channel();
            System.out.println("weir h2c server on " + server.localAddress() + " (" + (epoll ? "epoll" : "nio")
                    + ", " + options.threads() + " thread(s))");
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
            body.release();
        }
    }

    /** One instance for every stream's child channel. */
    @ChannelHandler.Sharable
    private static final class StreamHandler implements ChannelHandler {
        private final ByteBuf body;

        StreamHandler(ByteBuf body) {
            this.body = body;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame request && request.endStream()) {
                Http2Headers headers = new Http2Headers(4, false).status(STATUS_OK);
                headers.add(CONTENT_TYPE, TEXT_PLAIN).add(SERVER, SERVER_NAME).add(CONTENT_LENGTH, BODY_LENGTH);
                ctx.write(new Http2HeadersFrame(headers, false), ctx.voidPromise());
                ctx.write(new Http2DataFrame(body.retainedDuplicate(), true), ctx.voidPromise());
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
