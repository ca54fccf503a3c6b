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
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2FrameStream;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2ServerInitializer;
import io.weir.util.AsciiString;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Weir's half of the h2c load test run by {@code microbench/h2load-compare}: HTTP/2 by prior knowledge through
 * {@code Http2FrameCodec} and {@code Http2MultiplexHandler} (a child channel per stream), the same logic as
 * {@link NettyH2cMultiplexServer} and {@link NettyH2cConnectionHandlerServer}. Every request (any path) is answered
 * with the bytes of {@link WeirPlaintextServer}: status 200, {@code content-type: text/plain},
 * {@code server}, {@code content-length: 13} and {@code Hello, World!}. Each stream writes its response as the
 * request's HEADERS arrive; the multiplexer flushes once per read.
 *
 * <p>Usage: {@code java -cp microbenchmarks.jar io.weir.microbench.http.load.WeirH2cServer [--style mux|frames]
 * [--port 8080] [--transport nio|epoll|io_uring] [--threads 1]}; prints one line when it listens.
 * {@code --style frames} runs the {@code Http2FrameCodec} alone and answers on the connection's pipeline, without
 * child channels: the counterpart of {@link NettyH2cConnectionHandlerServer}.
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
        // --style frames: Http2FrameCodec alone, frames handled on the connection's pipeline (no child channels),
        // the counterpart of Netty's Http2ConnectionHandler style; mux (default): with the multiplexer.
        boolean frames = false;
        if (args.length >= 2 && args[0].equals("--style")) {
            if (!args[1].equals("frames") && !args[1].equals("mux")) {
                throw new IllegalArgumentException("--style: " + args[1] + " (expected: mux or frames)");
            }
            frames = args[1].equals("frames");
            args = Arrays.copyOfRange(args, 2, args.length);
        }
        LoadServerArgs options = LoadServerArgs.parse(args);
        WeirLoadTransport transport = WeirLoadTransport.of(options.transport());
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(options.threads(), transport.io());
        ByteBuf body = Unpooled.directBuffer(BODY.length).writeBytes(BODY);
        Http2ServerInitializer h2 = new Http2ServerInitializer(Http2FrameCodecBuilder.forServer(),
                new StreamHandler(body));
        boolean framesOnly = frames;
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            if (framesOnly) {
                                ch.pipeline().addLast(Http2FrameCodecBuilder.forServer().build(),
                                        new FrameHandler(body));
                            } else {
                                h2.install(ch);
                            }
                        }
                    })
                    .bind(options.port()).sync().channel();
            System.out.println("weir h2c server (" + (frames ? "frames" : "mux") + ") on " + server.localAddress()
                    + " (" + options.transport().label()
                    + ", " + options.threads() + " thread(s))");
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
            body.release();
        }
    }

    /** The response of either style: HEADERS then DATA with END_STREAM, on {@code stream} (null in a child). */
    static void respond(ChannelHandlerContext ctx, Http2FrameStream stream, ByteBuf body) {
        Http2Headers headers = new Http2Headers(4, false).status(STATUS_OK);
        headers.add(CONTENT_TYPE, TEXT_PLAIN).add(SERVER, SERVER_NAME).add(CONTENT_LENGTH, BODY_LENGTH);
        ctx.write(new Http2HeadersFrame(stream, headers, false), ctx.voidPromise());
        ctx.write(new Http2DataFrame(stream, body.retainedDuplicate(), true, 0), ctx.voidPromise());
    }

    /** The frames style: one per connection, after the codec; the codec flushes once per read. */
    private static final class FrameHandler implements ChannelHandler {
        private final ByteBuf body;

        FrameHandler(ByteBuf body) {
            this.body = body;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame request && request.endStream()) {
                respond(ctx, request.stream(), body);
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
                respond(ctx, null, body);
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
