package io.weir.example.hello;

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
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpServerPolicy;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http2.HttpServerInitializer;
import java.nio.charset.StandardCharsets;

/** The smallest complete Weir HTTP server: "Hello, Weir!" over HTTP/1.1 and h2c, with the default policy. */
public final class HelloServer {
    public static void main(String[] args) throws InterruptedException {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            Channel server = start(group, args.length > 0 ? Integer.parseInt(args[0]) : 8080);
            System.out.println("Listening on " + server.localAddress());
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    /** Binds {@code port} (0: any free port) on {@code group} and returns the listening channel. */
    public static Channel start(EventLoopGroup group, int port) throws InterruptedException {
        HttpServerInitializer http = new HttpServerInitializer(HttpServerPolicy.defaults(),
                new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpObjectAggregator(64 * 1024), new Hello());
                    }
                });
        return http.configure(new ServerBootstrap().group(group).channel(NioServerSocketChannel.class))
                .bind(port).sync().channel();
    }

    private static final class Hello extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void messageReceived(ChannelHandlerContext ctx, FullHttpRequest request) {
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.copiedBuffer("Hello, Weir!\n", StandardCharsets.UTF_8));
            HttpUtil.setContentLength(response, response.content().readableBytes());
            ctx.writeAndFlush(response);
        }
    }
}
