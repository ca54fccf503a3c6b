package io.weir.testsuite.transport;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioDatagramChannel;
import io.weir.channel.nio.NioIoHandler;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ProtocolFamily;

/** The datagram scenarios over NIO. */
class NioDatagramTransportTest extends AbstractDatagramScenarioTest {

    @Override
    EventLoopGroup newGroup() {
        return new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    }

    @Override
    Bootstrap datagramChannel(Bootstrap b) {
        return b.channel(NioDatagramChannel.class);
    }

    @Override
    Channel newChannel(EventLoop loop, ProtocolFamily family) {
        return new NioDatagramChannel(loop, family);
    }

    @Override
    boolean isConnected(Channel ch) {
        return ((NioDatagramChannel) ch).isConnected();
    }

    @Override
    ChannelFuture joinGroup(Channel ch, InetAddress group, NetworkInterface iface) {
        return ((NioDatagramChannel) ch).joinGroup(group, iface);
    }

    @Override
    ChannelFuture leaveGroup(Channel ch, InetAddress group) {
        return ((NioDatagramChannel) ch).leaveGroup(group);
    }
}
