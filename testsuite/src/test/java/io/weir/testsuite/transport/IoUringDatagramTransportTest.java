package io.weir.testsuite.transport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.uring.IoUring;
import io.weir.channel.uring.IoUringDatagramChannel;
import io.weir.channel.uring.IoUringIoHandler;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ProtocolFamily;
import org.junit.jupiter.api.BeforeAll;

/**
 * The datagram scenarios over the io_uring datagram channel. Skipped, with the reason, where io_uring
 * cannot be used.
 */
class IoUringDatagramTransportTest extends AbstractDatagramScenarioTest {

    @BeforeAll
    static void requireIoUring() {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring is not available: " + IoUring.unavailabilityCause());
    }

    @Override
    EventLoopGroup newGroup() {
        return new MultiThreadIoEventLoopGroup(2, IoUringIoHandler.newFactory());
    }

    @Override
    Bootstrap datagramChannel(Bootstrap b) {
        return b.channel(IoUringDatagramChannel.class);
    }

    @Override
    Channel newChannel(EventLoop loop, ProtocolFamily family) {
        return new IoUringDatagramChannel(loop, family);
    }

    @Override
    boolean isConnected(Channel ch) {
        return ((IoUringDatagramChannel) ch).isConnected();
    }

    @Override
    ChannelFuture joinGroup(Channel ch, InetAddress group, NetworkInterface iface) {
        return ((IoUringDatagramChannel) ch).joinGroup(group, iface);
    }

    @Override
    ChannelFuture leaveGroup(Channel ch, InetAddress group) {
        return ((IoUringDatagramChannel) ch).leaveGroup(group);
    }
}
