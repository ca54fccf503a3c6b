package io.weir.example.websocket;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.weir.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.weir.handler.codec.http.websocketx.PerMessageDeflateConfig;
import io.weir.handler.codec.http.websocketx.TextWebSocketFrame;
import io.weir.handler.codec.http.websocketx.WebSocketServerProtocolHandler;
import io.weir.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;

/**
 * A WebSocket echo server at {@code ws://host:port/ws}: every text and binary frame comes back as it was sent
 * (fragments included), with permessage-deflate when the client offers it. Any other request gets 404.
 *
 * <p>Backpressure, the part an echo server most often gets wrong, needs no code here: while the connection cannot
 * take more output (a client that sends but never reads), Weir's WebSocket decoder stops reading from it, so the
 * echoes wait in the client's TCP window instead of in the server's memory, and reading resumes when the output
 * drains. A handler that produces output another way (from a timer, from another connection) checks
 * {@code channel.isWritable()} itself.
 *
 * <pre>
 * examples/run io.weir.example.websocket.WebSocketEchoServer [port]      # 8080 by default
 * python3 -m websockets ws://127.0.0.1:8080/ws
 * </pre>
 */
public final class WebSocketEchoServer {
    private WebSocketEchoServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            Channel server = start(group, args.length > 0 ? Integer.parseInt(args[0]) : 8080);
            System.out.println("WebSocket echo on ws://" + server.localAddress() + "/ws");
            server.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    /** Binds {@code port} (0: any free port) on {@code group} and returns the listening channel. */
    public static Channel start(EventLoopGroup group, int port) throws InterruptedException {
        return new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(64 * 1024),
                                new WebSocketServerProtocolHandler("/ws").compression(new PerMessageDeflateConfig()),
                                new Echo());
                    }
                })
                .bind(port).sync().channel();
    }

    /** Echoes data frames; answers requests that were not a WebSocket upgrade to /ws with 404. */
    private static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof TextWebSocketFrame || msg instanceof BinaryWebSocketFrame
                    || msg instanceof ContinuationWebSocketFrame) {
                // The frame goes back out as it is: writing hands it (and the duty to release it) to the encoder.
                ctx.write(msg);
            } else if (msg instanceof FullHttpRequest) {
                ReferenceCountUtil.release(msg);
                DefaultFullHttpResponse notFound = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                        HttpResponseStatus.NOT_FOUND, Unpooled.copiedBuffer("Try /ws\n", StandardCharsets.UTF_8));
                HttpUtil.setContentLength(notFound, notFound.content().readableBytes());
                ctx.writeAndFlush(notFound).addListener(ChannelFutureListener.CLOSE);
            } else {
                ReferenceCountUtil.release(msg); // a close frame: the protocol handler already answered it
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }
}
