package io.weir.microbench.http.load;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;

/**
 * Netty 4.2's I/O handler factory and server channel class for a {@link LoadServerArgs.Transport}, checked for
 * availability first: a transport the machine cannot run fails the server's start with Netty's reason.
 */
record NettyLoadTransport(IoHandlerFactory io, Class<? extends ServerChannel> serverChannel) {
    static NettyLoadTransport of(LoadServerArgs.Transport transport) {
        return switch (transport) {
            case NIO -> new NettyLoadTransport(NioIoHandler.newFactory(), NioServerSocketChannel.class);
            case EPOLL -> {
                if (!Epoll.isAvailable()) {
                    throw transport.unavailable("Netty", Epoll.unavailabilityCause());
                }
                yield new NettyLoadTransport(EpollIoHandler.newFactory(), EpollServerSocketChannel.class);
            }
            case IO_URING -> {
                if (!IoUring.isAvailable()) {
                    throw transport.unavailable("Netty", IoUring.unavailabilityCause());
                }
                yield new NettyLoadTransport(IoUringIoHandler.newFactory(), IoUringServerSocketChannel.class);
            }
        };
    }
}
