package io.weir.example;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.Epoll;
import io.weir.channel.epoll.EpollServerSocketChannel;
import io.weir.channel.epoll.EpollSocketChannel;
import io.weir.channel.kqueue.KQueue;
import io.weir.channel.kqueue.KQueueIoHandler;
import io.weir.channel.kqueue.KQueueServerSocketChannel;
import io.weir.channel.kqueue.KQueueSocketChannel;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.channel.uring.IoUring;
import io.weir.channel.uring.IoUringIoHandler;
import io.weir.channel.uring.IoUringServerSocketChannel;
import io.weir.channel.uring.IoUringSocketChannel;
import io.weir.example.echo.EchoServer;
import io.weir.server.Transports;
import java.io.DataInputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class TransportsTest {
    private static final int SOCKET_TIMEOUT_MILLIS = 30_000;

    @Test
    void aNioGroupGetsNioChannelsWhateverTheMachineSupports() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            assertThat(Transports.serverChannel(group)).isEqualTo(NioServerSocketChannel.class);
            assertThat(Transports.socketChannel(group)).isEqualTo(NioSocketChannel.class);
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void onLinuxTheExamplesAreTestedOverEpoll() {
        // The build compiles the epoll library on Linux and the test JVMs grant native access (JDK 24+ refuses to
        // load it otherwise), so an unavailable epoll here means the examples' epoll cases silently ran on NIO.
        if (System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).startsWith("linux")) {
            assertThat(Epoll.unavailabilityCause()).as("why epoll did not load").isNull();
        }
    }

    @Test
    void theChosenTransportIsEpollExactlyWhenAvailableAndServesTheEchoExample() throws Exception {
        assertServesTheEchoExample(new MultiThreadIoEventLoopGroup(1, Transports.ioHandlerFactory()),
                Epoll.isAvailable() ? EpollServerSocketChannel.class : NioServerSocketChannel.class,
                Epoll.isAvailable() ? EpollSocketChannel.class : NioSocketChannel.class);
    }

    @Test
    void aKQueueGroupGetsKQueueChannelsThatServeTheEchoExample() throws Exception {
        Assumptions.assumeTrue(KQueue.isAvailable(), () -> "kqueue is not available: " + KQueue.unavailabilityCause());
        assertServesTheEchoExample(new MultiThreadIoEventLoopGroup(1, KQueueIoHandler.newFactory()),
                KQueueServerSocketChannel.class, KQueueSocketChannel.class);
    }

    @Test
    void anIoUringGroupGetsIoUringChannelsThatServeTheEchoExample() throws Exception {
        Assumptions.assumeTrue(IoUring.isAvailable(),
                () -> "io_uring is not available: " + IoUring.unavailabilityCause());
        assertServesTheEchoExample(new MultiThreadIoEventLoopGroup(1, IoUringIoHandler.newFactory()),
                IoUringServerSocketChannel.class, IoUringSocketChannel.class);
    }

    /** The channel classes Transports picks for {@code group}, and an echo through them; shuts the group down. */
    private static void assertServesTheEchoExample(EventLoopGroup group, Class<?> serverChannel,
                                                   Class<?> socketChannel) throws Exception {
        try (EchoServer server = new EchoServer(group)) {
            assertThat(Transports.serverChannel(group)).isEqualTo(serverChannel);
            assertThat(Transports.socketChannel(group)).isEqualTo(socketChannel);
            Channel channel = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            assertThat(channel).isInstanceOf(serverChannel);
            InetSocketAddress address = (InetSocketAddress) channel.localAddress();
            try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
                socket.setSoTimeout(SOCKET_TIMEOUT_MILLIS);
                socket.getOutputStream().write(new byte[] {1, 2, 3});
                byte[] echoed = new byte[3];
                new DataInputStream(socket.getInputStream()).readFully(echoed);
                assertThat(echoed).containsExactly(1, 2, 3);
            }
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }
}
