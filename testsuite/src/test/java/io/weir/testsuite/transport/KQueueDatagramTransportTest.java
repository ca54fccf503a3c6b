package io.weir.testsuite.transport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.kqueue.KQueue;
import io.weir.channel.kqueue.KQueueDatagramChannel;
import io.weir.channel.kqueue.KQueueIoHandler;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ProtocolFamily;
import org.junit.jupiter.api.BeforeAll;

/**
 * The datagram scenarios over the kqueue datagram channel: on macOS and the BSDs against the kernel, on Linux against
 * libkqueue. Skipped, with the reason, where the kqueue library cannot be loaded (on Linux: the build was not given
 * {@code -Dweir.libkqueue.prefix}).
 */
class KQueueDatagramTransportTest extends AbstractDatagramScenarioTest {

    @BeforeAll
    static void requireKQueue() {
        assumeTrue(KQueue.isAvailable(), () -> "kqueue is not available: " + KQueue.unavailabilityCause());
    }

    @Override
    EventLoopGroup newGroup() {
        return new MultiThreadIoEventLoopGroup(2, KQueueIoHandler.newFactory());
    }

    @Override
    Bootstrap datagramChannel(Bootstrap b) {
        return b.channel(KQueueDatagramChannel.class);
    }

    @Override
    Channel newChannel(EventLoop loop, ProtocolFamily family) {
        return new KQueueDatagramChannel(loop, family);
    }

    @Override
    boolean isConnected(Channel ch) {
        return ((KQueueDatagramChannel) ch).isConnected();
    }

    @Override
    ChannelFuture joinGroup(Channel ch, InetAddress group, NetworkInterface iface) {
        return ((KQueueDatagramChannel) ch).joinGroup(group, iface);
    }

    @Override
    ChannelFuture leaveGroup(Channel ch, InetAddress group) {
        return ((KQueueDatagramChannel) ch).leaveGroup(group);
    }
}
