package io.weir.handler.ssl;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.ServerChannel;
import io.weir.channel.epoll.Epoll;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.epoll.EpollServerSocketChannel;
import io.weir.channel.epoll.EpollSocketChannel;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/** The socket transports the TLS scenarios run over: NIO always, epoll where it loads (Linux). */
enum SocketTransport {
    NIO, EPOLL;

    /** The transports available here; epoll is required on Linux so that a broken build cannot skip it. */
    static List<SocketTransport> available() {
        if (System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            Epoll.ensureAvailability();
            return List.of(NIO, EPOLL);
        }
        return List.of(NIO);
    }

    EventLoopGroup newGroup(int threads) {
        return new MultiThreadIoEventLoopGroup(threads, this == NIO ? NioIoHandler.newFactory() : EpollIoHandler.newFactory());
    }

    Class<? extends ServerChannel> serverChannel() {
        return this == NIO ? NioServerSocketChannel.class : EpollServerSocketChannel.class;
    }

    Class<? extends Channel> socketChannel() {
        return this == NIO ? NioSocketChannel.class : EpollSocketChannel.class;
    }

    /** Binds a server on a free loopback port whose connections get {@code init}'s handlers. */
    Channel bind(EventLoopGroup group, Consumer<Channel> init) throws Exception {
        Channel bound = new ServerBootstrap().group(group).channel(serverChannel())
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        init.accept(ch);
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        // The acceptor is added by a task queued at registration: wait for it so no early connection is dropped.
        bound.eventLoop().submit(() -> { }).get(TlsTestSupport.TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return bound;
    }

    /** Connects to {@code address} with {@code handlers} in the pipeline. */
    Channel connect(EventLoopGroup group, InetSocketAddress address, ChannelHandler... handlers) throws Exception {
        return new Bootstrap().group(group).channel(socketChannel())
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(handlers);
                    }
                })
                .connect(address).sync().channel();
    }
}
