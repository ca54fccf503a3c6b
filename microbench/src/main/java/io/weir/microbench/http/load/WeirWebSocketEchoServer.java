package io.weir.microbench.http.load;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.weir.handler.codec.http.websocketx.TextWebSocketFrame;
import io.weir.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.weir.util.ReferenceCountUtil;

/**
 * Weir's half of the WebSocket echo load test ({@code microbench/ws-compare}): {@code /ws} echoes every text and
 * binary message, no compression, writes as the frames are decoded and one flush per read. {@link
 * NettyWebSocketEchoServer} is the same with Netty 4.2.
 *
 * <p>Usage: {@code java -cp microbenchmarks.jar io.weir.microbench.http.load.WeirWebSocketEchoServer
 * [--port 8080] [--transport nio|epoll|io_uring] [--threads 1]}; prints one line when it listens.
 */
public final class WeirWebSocketEchoServer {
    /** The handshake request's largest size, as for Netty's half. */
    static final int MAX_HANDSHAKE_BYTES = 65_536;

    private WeirWebSocketEchoServer() {
    }

    public static void main(String[] args) throws Exception {
        LoadServerArgs options = LoadServerArgs.parse(args);
        WeirLoadTransport transport = WeirLoadTransport.of(options.transport());
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(options.threads(), transport.io());
        Echo echo = new Echo();
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_HANDSHAKE_BYTES),
                                    new WebSocketServerProtocolHandler("/ws"), echo);
                        }
                    })
                    .bind(options.port()).sync().channel();
            System.out.println("weir websocket echo server on " + server.localAddress() + " ("
                    + options.transport().label() + ", " + options.threads() + " thread(s))");
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    /** Writes each data frame back (the write releases it) and flushes once per read. */
    @ChannelHandler.Sharable
    static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof TextWebSocketFrame || msg instanceof BinaryWebSocketFrame) {
                ctx.write(msg, ctx.voidPromise());
            } else {
                ReferenceCountUtil.release(msg);
            }
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
