package io.weir.testsuite.transport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.Epoll;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.epoll.EpollServerSocketChannel;
import io.weir.channel.epoll.EpollSocketChannel;
import org.junit.jupiter.api.BeforeAll;

/**
 * The shared and the TCP scenarios over the native epoll TCP channels. Skipped, with the reason, where the epoll library
 * cannot be loaded (not Linux, no library for this CPU, native access refused).
 */
class EpollTransportScenarioTest extends AbstractSocketTransportScenarioTest {

    @BeforeAll
    static void requireEpoll() {
        assumeTrue(Epoll.isAvailable(), () -> "epoll is not available: " + Epoll.unavailabilityCause());
    }

    @Override
    EventLoopGroup newGroup() {
        return new MultiThreadIoEventLoopGroup(2, EpollIoHandler.newFactory());
    }

    @Override
    ServerBootstrap serverChannel(ServerBootstrap b) {
        return b.channel(EpollServerSocketChannel.class);
    }

    @Override
    Bootstrap clientChannel(Bootstrap b) {
        return b.channel(EpollSocketChannel.class);
    }
}
