package io.weir.testsuite.transport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.kqueue.KQueue;
import io.weir.channel.kqueue.KQueueIoHandler;
import io.weir.channel.kqueue.KQueueServerSocketChannel;
import io.weir.channel.kqueue.KQueueSocketChannel;
import org.junit.jupiter.api.BeforeAll;

/**
 * The shared and the TCP scenarios over the kqueue TCP channels: on macOS and the BSDs against the kernel, on Linux
 * against libkqueue. Skipped, with the reason, where the kqueue library cannot be loaded (on Linux: the build was
 * not given {@code -Dweir.libkqueue.prefix}).
 */
class KQueueTransportScenarioTest extends AbstractSocketTransportScenarioTest {

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
        return b.channel(KQueueServerSocketChannel.class);
    }

    @Override
    Bootstrap clientChannel(Bootstrap b) {
        return b.channel(KQueueSocketChannel.class);
    }
}
