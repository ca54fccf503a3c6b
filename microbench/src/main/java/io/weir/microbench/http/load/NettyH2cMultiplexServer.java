package io.weir.microbench.http.load;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersFrame;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;

/**
 * Netty 4.2's first HTTP/2 server style for {@code microbench/h2load-compare}: {@code Http2FrameCodec} and
 * {@code Http2MultiplexHandler} (a child channel per stream), h2c by prior knowledge, the same logic and response
 * bytes as {@link WeirH2cServer}.
 *
 * <p>Usage: {@code java -cp microbenchmarks.jar io.weir.microbench.http.load.NettyH2cMultiplexServer
 * [--port 8080] [--transport nio|epoll|io_uring] [--threads 1]}; prints one line when it listens.
 */
public final class NettyH2cMultiplexServer {
    static final AsciiString STATUS_OK = AsciiString.cached("200");
    static final AsciiString CONTENT_TYPE = AsciiString.cached("content-type");
    static final AsciiString TEXT_PLAIN = AsciiString.cached("text/plain");
    static final AsciiString SERVER = AsciiString.cached("server");
    static final AsciiString SERVER_NAME = AsciiString.cached("netty");
    static final AsciiString CONTENT_LENGTH = AsciiString.cached("content-length");
    static final AsciiString BODY_LENGTH = AsciiString.cached(Integer.toString(WeirH2cServer.BODY.length));

    private NettyH2cMultiplexServer() {
    }

    public static void main(String[] args) throws Exception {
        LoadServerArgs options = LoadServerArgs.parse(args);
        ByteBuf body = Unpooled.directBuffer(WeirH2cServer.BODY.length).writeBytes(WeirH2cServer.BODY);
        StreamHandler streamHandler = new StreamHandler(body);
        run("netty h2c multiplex server", options, body, new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(Http2FrameCodecBuilder.forServer().build(),
                        new Http2MultiplexHandler(streamHandler));
            }
        });
    }

    /** The response head every Netty h2c server sends (validation off, as in Weir's). */
    static Http2Headers responseHeaders() {
        Http2Headers headers = new DefaultHttp2Headers(false, 4).status(STATUS_OK);
        headers.add(CONTENT_TYPE, TEXT_PLAIN).add(SERVER, SERVER_NAME).add(CONTENT_LENGTH, BODY_LENGTH);
        return headers;
    }

    /** Binds a server with the options' transport and loop count (h2c or TLS) and waits until it closes. */
    static void run(String name, LoadServerArgs options, ByteBuf body, ChannelHandler childHandler)
            throws InterruptedException {
        NettyLoadTransport transport = NettyLoadTransport.of(options.transport());
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(options.threads(), transport.io());
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(childHandler)
                    .bind(options.port()).sync().channel();
            System.out.println(name + " on " + server.localAddress() + " (" + options.transport().label() + ", "
                    + options.threads() + " thread(s))");
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
            body.release();
        }
    }

    @ChannelHandler.Sharable
    private static final class StreamHandler extends ChannelInboundHandlerAdapter {
        private final ByteBuf body;

        StreamHandler(ByteBuf body) {
            this.body = body;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame request && request.isEndStream()) {
                ctx.write(new DefaultHttp2HeadersFrame(responseHeaders(), false), ctx.voidPromise());
                ctx.write(new DefaultHttp2DataFrame(body.retainedDuplicate(), true), ctx.voidPromise());
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
