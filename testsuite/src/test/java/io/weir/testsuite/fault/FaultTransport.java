package io.weir.testsuite.fault;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.Epoll;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.epoll.EpollServerSocketChannel;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;

/** The socket transports the fault tests run over; epoll ones are skipped, with the reason, where it does not load. */
enum FaultTransport {
    NIO,
    EPOLL;

    /** Skips the calling test if this transport cannot run here. */
    void assumeAvailable() {
        if (this == EPOLL) {
            assumeTrue(Epoll.isAvailable(), () -> "epoll is not available: " + Epoll.unavailabilityCause());
        }
    }

    /** A group of {@code threads} loops of this transport. */
    EventLoopGroup newGroup(int threads) {
        return new MultiThreadIoEventLoopGroup(threads,
                this == NIO ? NioIoHandler.newFactory() : EpollIoHandler.newFactory());
    }

    /** Sets this transport's server channel type on {@code b}. */
    ServerBootstrap serverChannel(ServerBootstrap b) {
        return this == NIO ? b.channel(NioServerSocketChannel.class) : b.channel(EpollServerSocketChannel.class);
    }
}
