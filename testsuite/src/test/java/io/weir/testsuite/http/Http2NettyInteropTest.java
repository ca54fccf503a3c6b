package io.weir.testsuite.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.DefaultHttp2DataFrame;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersFrame;
import io.netty.util.ReferenceCountUtil;
import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2MultiplexHandler;
import io.weir.handler.codec.http2.Http2ServerInitializer;
import io.weir.handler.codec.http2.Http2StreamChannel;
import io.weir.handler.codec.http2.Http2StreamChannelBootstrap;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Weir's HTTP/2 against Netty 4.2's: a Weir client on a Netty server, a Netty client on a Weir server. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Http2NettyInteropTest {

    /** Netty server side: answers each stream with 200 and "netty:" plus the path. */
    @Sharable
    static final class NettyPathEcho extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof io.netty.handler.codec.http2.Http2HeadersFrame h && h.isEndStream()) {
                ctx.write(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().status("200")));
                ctx.writeAndFlush(new DefaultHttp2DataFrame(Unpooled.copiedBuffer("netty:" + h.headers().path(),
                        StandardCharsets.UTF_8), true));
            }
            ReferenceCountUtil.release(msg);
        }
    }

    /** Weir server side: answers each stream with 200 and "weir:" plus the path. */
    @ChannelHandler.Sharable
    static final class WeirPathEcho implements ChannelHandler {
        @Override
        public void channelRead(io.weir.channel.ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame h && h.endStream()) {
                ctx.write(new Http2HeadersFrame(new Http2Headers().status("200"), false));
                ctx.writeAndFlush(new Http2DataFrame(io.weir.buffer.Unpooled.copiedBuffer("weir:" + h.headers().path(),
                        StandardCharsets.UTF_8), true));
            }
            io.weir.util.ReferenceCountUtil.release(msg);
        }
    }

    @Test
    void weirClientAgainstNettyServer() throws Exception {
        io.netty.channel.EventLoopGroup nettyGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup weirGroup = new io.weir.channel.MultiThreadIoEventLoopGroup(1,
                io.weir.channel.nio.NioIoHandler.newFactory());
        try {
            io.netty.channel.Channel server = new ServerBootstrap().group(nettyGroup)
                    .channel(NioServerSocketChannel.class)
                    .childHandler(new io.netty.channel.ChannelInitializer<io.netty.channel.Channel>() {
                        @Override
                        protected void initChannel(io.netty.channel.Channel ch) {
                            ch.pipeline().addLast(io.netty.handler.codec.http2.Http2FrameCodecBuilder.forServer()
                                    .build(), new io.netty.handler.codec.http2.Http2MultiplexHandler(
                                            new NettyPathEcho()));
                        }
                    }).bind(InetAddress.getLoopbackAddress(), 0).sync().channel();
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            Channel client = new Bootstrap().group(weirGroup).channel(io.weir.channel.nio.NioSocketChannel.class)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(Http2FrameCodecBuilder.forClient().build(),
                                    new Http2MultiplexHandler(new WeirPathEcho()));
                        }
                    }).connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)).sync().channel();
            for (int i = 0; i < 3; i++) {
                CompletableFuture<String> answer = new CompletableFuture<>();
                Http2StreamChannel stream = new Http2StreamChannelBootstrap(client).handler(new ChannelHandler() {
                    private final StringBuilder sb = new StringBuilder();

                    @Override
                    public void channelRead(io.weir.channel.ChannelHandlerContext ctx, Object msg) {
                        if (msg instanceof Http2HeadersFrame h) {
                            sb.append(h.headers().status()).append(' ');
                        } else if (msg instanceof Http2DataFrame d) {
                            sb.append(d.content().toString(StandardCharsets.UTF_8));
                            if (d.endStream()) {
                                answer.complete(sb.toString());
                            }
                        }
                        io.weir.util.ReferenceCountUtil.release(msg);
                    }
                }).open().get(10, TimeUnit.SECONDS);
                stream.writeAndFlush(new Http2HeadersFrame(new Http2Headers().method("GET").scheme("http")
                        .authority("localhost").path("/n" + i), true));
                assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo("200 netty:/n" + i);
            }
            client.close().sync();
            server.close().sync();
        } finally {
            nettyGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
            weirGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void nettyClientAgainstWeirServer() throws Exception {
        io.netty.channel.EventLoopGroup nettyGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup weirGroup = new io.weir.channel.MultiThreadIoEventLoopGroup(1,
                io.weir.channel.nio.NioIoHandler.newFactory());
        try {
            Http2ServerInitializer h2 = new Http2ServerInitializer(Http2FrameCodecBuilder.forServer(),
                    new WeirPathEcho());
            Channel server = new io.weir.bootstrap.ServerBootstrap().group(weirGroup)
                    .channel(io.weir.channel.nio.NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            h2.install(ch);
                        }
                    }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            io.netty.channel.Channel client = new io.netty.bootstrap.Bootstrap().group(nettyGroup)
                    .channel(NioSocketChannel.class)
                    .handler(new io.netty.channel.ChannelInitializer<io.netty.channel.Channel>() {
                        @Override
                        protected void initChannel(io.netty.channel.Channel ch) {
                            ch.pipeline().addLast(io.netty.handler.codec.http2.Http2FrameCodecBuilder.forClient()
                                    .build(), new io.netty.handler.codec.http2.Http2MultiplexHandler(
                                            new NettyPathEcho()));
                        }
                    }).connect(InetAddress.getLoopbackAddress(), port).sync().channel();
            for (int i = 0; i < 3; i++) {
                CompletableFuture<String> answer = new CompletableFuture<>();
                io.netty.handler.codec.http2.Http2StreamChannel stream =
                        new io.netty.handler.codec.http2.Http2StreamChannelBootstrap(client)
                                .handler(new ChannelInboundHandlerAdapter() {
                                    private final StringBuilder sb = new StringBuilder();

                                    @Override
                                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                        if (msg instanceof io.netty.handler.codec.http2.Http2HeadersFrame h) {
                                            sb.append(h.headers().status()).append(' ');
                                        } else if (msg instanceof io.netty.handler.codec.http2.Http2DataFrame d) {
                                            sb.append(d.content().toString(StandardCharsets.UTF_8));
                                            if (d.isEndStream()) {
                                                answer.complete(sb.toString());
                                            }
                                        }
                                        ReferenceCountUtil.release(msg);
                                    }
                                }).open().sync().getNow();
                stream.writeAndFlush(new DefaultHttp2HeadersFrame(new DefaultHttp2Headers().method("GET")
                        .scheme("http").authority("localhost").path("/w" + i), true));
                assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo("200 weir:/w" + i);
            }
            client.close().sync();
            server.close().sync();
        } finally {
            nettyGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
            weirGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }
}
