package io.weir.testsuite.transport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.unix.PeerCredentials;
import io.weir.channel.uring.IoUring;
import io.weir.channel.uring.IoUringDomainSocketChannel;
import io.weir.channel.uring.IoUringIoHandler;
import io.weir.channel.uring.IoUringServerDomainSocketChannel;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared and the domain-socket scenarios over the io_uring Unix domain stream channels. Skipped, with the
 * reason, where io_uring cannot be used.
 */
class IoUringDomainSocketTransportTest extends AbstractDomainSocketScenarioTest {

    @BeforeAll
    static void requireIoUring() {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring is not available: " + IoUring.unavailabilityCause());
    }

    @Override
    EventLoopGroup newGroup() {
        return new MultiThreadIoEventLoopGroup(2, IoUringIoHandler.newFactory());
    }

    @Override
    ServerBootstrap serverChannel(ServerBootstrap b) {
        return b.channel(IoUringServerDomainSocketChannel.class);
    }

    @Override
    Bootstrap clientChannel(Bootstrap b) {
        return b.channel(IoUringDomainSocketChannel.class);
    }

    @Override
    PeerCredentials peerCredentials(Channel client) throws IOException {
        return ((IoUringDomainSocketChannel) client).peerCredentials();
    }

    @Test
    void fileRegionsBetweenBuffersAreSplicedInWriteOrder(@TempDir Path dir) throws Exception {
        IoUringFileRegionScenario.regionsBetweenBuffersArriveInOrder(this, dir);
    }
}
