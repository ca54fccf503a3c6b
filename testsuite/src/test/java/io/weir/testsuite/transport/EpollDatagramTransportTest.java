package io.weir.testsuite.transport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.Epoll;
import io.weir.channel.epoll.EpollDatagramChannel;
import io.weir.channel.epoll.EpollIoHandler;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ProtocolFamily;
import org.junit.jupiter.api.BeforeAll;

/**
 * The datagram scenarios over the native epoll datagram channel. Skipped, with the reason, where the epoll library
 * cannot be loaded.
 */
class EpollDatagramTransportTest extends AbstractDatagramScenarioTest {

    @BeforeAll
    static void requireEpoll() {
        assumeTrue(Epoll.isAvailable(), () -> "epoll is not available: " + Epoll.unavailabilityCause());
    }

    @Override
    EventLoopGroup newGroup() {
        return new MultiThreadIoEventLoopGroup(2, EpollIoHandler.newFactory());
    }

    @Override
    Bootstrap datagramChannel(Bootstrap b) {
        return b.channel(EpollDatagramChannel.class);
    }

    @Override
    Channel newChannel(EventLoop loop, ProtocolFamily family) {
        return new EpollDatagramChannel(loop, family);
    }

    @Override
    boolean isConnected(Channel ch) {
        return ((EpollDatagramChannel) ch).isConnected();
    }

    @Override
    ChannelFuture joinGroup(Channel ch, InetAddress group, NetworkInterface iface) {
        return ((EpollDatagramChannel) ch).joinGroup(group, iface);
    }

    @Override
    ChannelFuture leaveGroup(Channel ch, InetAddress group) {
        return ((EpollDatagramChannel) ch).leaveGroup(group);
    }
}
