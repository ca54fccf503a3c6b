package io.weir.channel.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.group.ChannelGroup;
import io.weir.channel.group.DefaultChannelGroup;
import io.weir.util.concurrent.GlobalEventExecutor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** A loopback server that sends back every byte it reads; closing it closes its connections too (a connection
 * accepted while it closes is left to the shutdown of its event loops). */
final class EchoServer implements AutoCloseable {
    private static final long TIMEOUT_SECONDS = 30;

    private final ChannelGroup channels = new DefaultChannelGroup("echo", GlobalEventExecutor.INSTANCE);
    private final Channel server;

    private EchoServer(EventLoopGroup loops, InetSocketAddress address) throws InterruptedException {
        ChannelFuture bound = new ServerBootstrap().group(loops, loops)
                .channel(NioServerSocketChannel.class)
                .childHandler(new Echo(channels))
                .bind(address);
        assertThat(bound.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(bound.cause()).as("bind %s", address).isNull();
        server = bound.channel();
        channels.add(server);
    }

    /** A server on an ephemeral loopback port. */
    static EchoServer start(EventLoopGroup loops) throws InterruptedException {
        return new EchoServer(loops, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    /** A server on {@code address}, e.g. that of a server stopped before. */
    static EchoServer start(EventLoopGroup loops, InetSocketAddress address) throws InterruptedException {
        return new EchoServer(loops, address);
    }

    InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    @Override
    public void close() {
        assertThat(channels.close().awaitUninterruptibly(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    /** Joins the group and writes back what it reads (the write takes over the buffer). */
    @ChannelHandler.Sharable
    private static final class Echo implements ChannelHandler {
        private final ChannelGroup channels;

        Echo(ChannelGroup channels) {
            this.channels = channels;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            channels.add(ctx.channel());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.writeAndFlush(msg);
        }
    }
}
