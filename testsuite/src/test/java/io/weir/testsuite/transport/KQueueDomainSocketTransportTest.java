package io.weir.testsuite.transport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.kqueue.KQueue;
import io.weir.channel.kqueue.KQueueDomainSocketChannel;
import io.weir.channel.kqueue.KQueueIoHandler;
import io.weir.channel.kqueue.KQueueServerDomainSocketChannel;
import io.weir.channel.unix.PeerCredentials;
import java.io.IOException;
import org.junit.jupiter.api.BeforeAll;

/**
 * The shared and the domain-socket scenarios over the kqueue Unix domain stream channels. Skipped, with the
 * reason, where the kqueue library cannot be loaded (on Linux: no {@code -Dweir.libkqueue.prefix}).
 */
class KQueueDomainSocketTransportTest extends AbstractDomainSocketScenarioTest {

    @BeforeAll
    static void requireKQueue() {
        assumeTrue(KQueue.isAvailable(), () -> "kqueue is not available: " + KQueue.unavailabilityCause());
    }

    @Override
    EventLoopGroup newGroup() {
        return new MultiThreadIoEventLoopGroup(2, KQueueIoHandler.newFactory());
    }

    @Override
    ServerBootstrap serverChannel(ServerBootstrap b) {
        return b.channel(KQueueServerDomainSocketChannel.class);
    }

    @Override
    Bootstrap clientChannel(Bootstrap b) {
        return b.channel(KQueueDomainSocketChannel.class);
    }

    @Override
    PeerCredentials peerCredentials(Channel client) throws IOException {
        return ((KQueueDomainSocketChannel) client).peerCredentials();
    }
}
