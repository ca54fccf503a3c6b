package io.weir.channel.epoll;

import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** A tiny stand-in for the bootstraps: servers and clients made with the channel API only. */
final class EpollChannels {
    static final long TIMEOUT_SECONDS = 30;
    static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private EpollChannels() {
    }

    /**
     * A server channel on {@code loop}, bound to a free loopback port, whose accepted channels get a handler from
     * {@code childHandler} and {@code configureChild} before they are registered.
     */
    static EpollServerSocketChannel server(EventLoop loop, EventLoopGroup childGroup,
                                           Consumer<EpollServerSocketChannel> configure,
                                           Consumer<Channel> configureChild,
                                           Supplier<ChannelHandler> childHandler) throws Exception {
        return server(loop, childGroup, configure, configureChild, childHandler, LOOPBACK);
    }

    static EpollServerSocketChannel server(EventLoop loop, EventLoopGroup childGroup,
                                           Consumer<EpollServerSocketChannel> configure,
                                           Consumer<Channel> configureChild,
                                           Supplier<ChannelHandler> childHandler,
                                           SocketAddress address) throws Exception {
        EpollServerSocketChannel server = new EpollServerSocketChannel(loop, childGroup);
        configure.accept(server);
        server.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                Channel child = (Channel) msg;
                configureChild.accept(child);
                child.pipeline().addLast(childHandler.get());
                child.register();
            }
        });
        server.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        server.bind(address).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return server;
    }

    /** A client channel on {@code loop} with {@code handler}, connected to {@code remote}. */
    static EpollSocketChannel client(EventLoop loop, SocketAddress remote, Consumer<EpollSocketChannel> configure,
                                     ChannelHandler handler) throws Exception {
        EpollSocketChannel client = new EpollSocketChannel(loop);
        configure.accept(client);
        client.pipeline().addLast(handler);
        client.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        client.connect(remote).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return client;
    }

    static void closeAll(Channel... channels) throws Exception {
        for (Channel channel : channels) {
            if (channel != null) {
                channel.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        }
    }

    /** Writes every buffer it reads back to the peer. */
    static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /**
     * Copies what it reads into memory (releasing each buffer) and completes {@link #done} once {@code expected}
     * bytes arrived, or exceptionally on an error.
     */
    static class Collector implements ChannelHandler {
        final ByteArrayOutputStream received = new ByteArrayOutputStream();
        final CompletableFuture<byte[]> done = new CompletableFuture<>();
        /** Completed with the channel once it is registered and active. */
        final CompletableFuture<Channel> active = new CompletableFuture<>();
        private final int expected;
        int reads;

        Collector(int expected) {
            this.expected = expected;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.fireChannelActive();
            active.complete(ctx.channel());
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                reads++;
                byte[] bytes = new byte[buf.readableBytes()];
                buf.readBytes(bytes);
                received.write(bytes, 0, bytes.length);
            } finally {
                buf.release();
            }
            if (received.size() >= expected) {
                done.complete(received.toByteArray());
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.completeExceptionally(cause);
        }

        Channel awaitActive() throws Exception {
            return active.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }

        byte[] await() throws Exception {
            return done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }
}
