package io.weir.testsuite.transport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.uring.IoUring;
import io.weir.channel.uring.IoUringIoHandler;
import io.weir.channel.uring.IoUringServerSocketChannel;
import io.weir.channel.uring.IoUringSocketChannel;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared and the TCP scenarios over the io_uring TCP channels. Skipped, with the reason, where io_uring cannot be
 * used (not Linux, no library for this CPU, native access refused, a kernel without io_uring or with it disabled).
 */
class IoUringTransportScenarioTest extends AbstractSocketTransportScenarioTest {

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
        return b.channel(IoUringServerSocketChannel.class);
    }

    @Override
    Bootstrap clientChannel(Bootstrap b) {
        return b.channel(IoUringSocketChannel.class);
    }

    @Test
    void fileRegionsBetweenBuffersAreSplicedInWriteOrder(@TempDir Path dir) throws Exception {
        IoUringFileRegionScenario.regionsBetweenBuffersArriveInOrder(this, dir);
    }
}
