package io.weir.testsuite.transport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.uring.IoUring;
import io.weir.channel.uring.IoUringChannelOption;
import io.weir.channel.uring.IoUringIoOps;
import org.junit.jupiter.api.BeforeAll;

/**
 * The shared and the TCP scenarios over the io_uring TCP channels with every single-buffer write sent zero-copy
 * ({@link IoUringChannelOption#SEND_ZC_THRESHOLD} 0) on both ends: echo, backpressure, half-closure and closing with
 * writes pending must all hold while buffers wait for their notifications. Skipped where the kernel lacks
 * {@code IORING_OP_SEND_ZC}.
 */
class IoUringZeroCopyTransportScenarioTest extends IoUringTransportScenarioTest {

    @BeforeAll
    static void requireSendZc() {
        assumeTrue(IoUring.isOperationSupported(IoUringIoOps.OP_SEND_ZC), "this kernel has no IORING_OP_SEND_ZC");
    }

    @Override
    ServerBootstrap serverChannel(ServerBootstrap b) {
        return super.serverChannel(b).childOption(IoUringChannelOption.SEND_ZC_THRESHOLD, 0);
    }

    @Override
    Bootstrap clientChannel(Bootstrap b) {
        return super.clientChannel(b).option(IoUringChannelOption.SEND_ZC_THRESHOLD, 0);
    }
}
