package io.weir.microbench.http.load;

import io.weir.channel.IoHandlerFactory;
import io.weir.channel.ServerChannel;
import io.weir.channel.epoll.Epoll;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.epoll.EpollServerSocketChannel;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.uring.IoUring;
import io.weir.channel.uring.IoUringIoHandler;
import io.weir.channel.uring.IoUringServerSocketChannel;

/**
 * Weir's I/O handler factory and server channel class for a {@link LoadServerArgs.Transport}, checked for
 * availability first: a transport the machine cannot run fails the server's start with the reason.
 */
record WeirLoadTransport(IoHandlerFactory io, Class<? extends ServerChannel> serverChannel) {
    static WeirLoadTransport of(LoadServerArgs.Transport transport) {
        return switch (transport) {
            case NIO -> new WeirLoadTransport(NioIoHandler.newFactory(), NioServerSocketChannel.class);
            case EPOLL -> {
                if (!Epoll.isAvailable()) {
                    throw transport.unavailable("Weir", Epoll.unavailabilityCause());
                }
                yield new WeirLoadTransport(EpollIoHandler.newFactory(), EpollServerSocketChannel.class);
            }
            case IO_URING -> {
                if (!IoUring.isAvailable()) {
                    throw transport.unavailable("Weir", IoUring.unavailabilityCause());
                }
                yield new WeirLoadTransport(IoUringIoHandler.newFactory(), IoUringServerSocketChannel.class);
            }
        };
    }
}
