package io.weir.microbench.http.load;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.netty.util.ReferenceCountUtil;

/**
 * Netty 4.2's half of the WebSocket echo load test: the same logic as {@link WeirWebSocketEchoServer} with
 * Netty's API ({@code /ws}, no compression, Netty's default frame limits, one flush per read).
 *
 * <p>Usage: {@code java -cp microbenchmarks.jar io.weir.microbench.http.load.NettyWebSocketEchoServer
 * [--port 8080] [--transport nio|epoll|io_uring] [--threads 1]}; prints one line when it listens.
 */
public final class NettyWebSocketEchoServer {
    private NettyWebSocketEchoServer() {
    }

    public static void main(String[] args) throws Exception {
        LoadServerArgs options = LoadServerArgs.parse(args);
        NettyLoadTransport transport = NettyLoadTransport.of(options.transport());
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(options.threads(), transport.io());
        Echo echo = new Echo();
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverChannel())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(new HttpServerCodec(),
                                    new HttpObjectAggregator(WeirWebSocketEchoServer.MAX_HANDSHAKE_BYTES),
                                    new WebSocketServerProtocolHandler("/ws"), echo);
                        }
                    })
                    .bind(options.port()).sync().channel();
            System.out.println("netty websocket echo server on " + server.localAddress() + " ("
                    + options.transport().label() + ", " + options.threads() + " thread(s))");
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    /** Writes each data frame back (the write releases it) and flushes once per read. */
    @ChannelHandler.Sharable
    static final class Echo extends ChannelInboundHandlerAdapter {
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
