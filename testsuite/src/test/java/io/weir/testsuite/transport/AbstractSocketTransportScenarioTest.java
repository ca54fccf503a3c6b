package io.weir.testsuite.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelProgressiveFuture;
import io.weir.channel.ChannelProgressiveFutureListener;
import io.weir.channel.ChannelProgressivePromise;
import io.weir.channel.ConnectTimeoutException;
import io.weir.channel.DefaultFileRegion;
import io.weir.channel.EventLoop;
import io.weir.metrics.EventLoopMetrics;
import io.weir.util.concurrent.EventExecutor;
import java.io.File;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scenarios of every TCP transport (NIO, epoll) on top of the shared ones: loopback addresses, socket
 * options, connect timeouts and host-name resolution.
 */
abstract class AbstractSocketTransportScenarioTest extends AbstractTransportScenarioTest {

    @Override
    SocketAddress bindAddress() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    @Override
    void smallTransportBuffers(ServerBootstrap server, Bootstrap client) {
        server.childOption(ChannelOption.SO_RCVBUF, 8 * 1024);
        client.option(ChannelOption.SO_SNDBUF, 8 * 1024);
    }

    @Override
    SocketAddress unboundAddress() throws Exception {
        // A port the kernel just handed out and took back: nothing listens there for the rest of the test.
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return probe.getLocalAddress();
        }
    }

    @Test
    void theLoopsCountTheBytesTheirConnectionsCarried() throws Exception {
        int length = 100_000;
        long readBefore = 0;
        long writtenBefore = 0;
        for (EventExecutor loop : group) {
            readBefore += ((EventLoop) loop).metrics().bytesRead();
            writtenBefore += ((EventLoop) loop).metrics().bytesWritten();
        }
        Channel server = bind(server(new EchoHandler()));
        Collector collector = new Collector(length);
        Channel client = connect(client(collector), server.localAddress());
        client.writeAndFlush(Unpooled.wrappedBuffer(randomBytes(length, 7)));
        collector.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        long read = -readBefore;
        long written = -writtenBefore;
        for (EventExecutor loop : group) {
            // Read on each loop, after what the loop did: its counts are written by its own thread.
            EventLoopMetrics metrics = ((EventLoop) loop).metrics();
            read += loop.submit(metrics::bytesRead).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            written += loop.submit(metrics::bytesWritten).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        assertThat(read).as("the server's reads and the client's").isEqualTo(2L * length);
        assertThat(written).as("the client's writes and the echo").isEqualTo(2L * length);
    }

    @Test
    void tcpNoDelayIsOnByDefaultAndOptionsReachTheSocket() throws Exception {
        Channel server = bind(server(new EchoHandler()).option(ChannelOption.SO_BACKLOG, 128));
        Channel client = connect(client(new ChannelHandler() { })
                .option(ChannelOption.SO_KEEPALIVE, true), server.localAddress());
        assertThat(client.config().getOption(ChannelOption.TCP_NODELAY)).isTrue();
        assertThat(client.config().getOption(ChannelOption.SO_KEEPALIVE)).isTrue();
        assertThat(server.config().getOption(ChannelOption.SO_BACKLOG)).isEqualTo(128);
        assertThat(client.config().getOptions()).containsKeys(ChannelOption.SO_LINGER, ChannelOption.IP_TOS);
    }

    /**
     * A listener whose accept queue is full drops further SYNs, so a connect to it neither succeeds nor is
     * refused: only the connect timeout ends it. (A non-routable address would do too, but sandboxes often
     * answer those through a proxy.)
     */
    @Test
    void connectThatNeverCompletesFailsWithConnectTimeoutException() throws Exception {
        try (ServerSocketChannel listener = ServerSocketChannel.open()) {
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            SocketAddress address = listener.getLocalAddress();
            Bootstrap b = client(NOOP).option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 300);
            Throwable timeout = null;
            for (int attempt = 0; attempt < 64 && timeout == null; attempt++) {
                ChannelFuture f = b.connect(address);
                assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                if (f.isSuccess()) {
                    track(f.channel());
                    continue;
                }
                assertThat(f.cause()).isInstanceOf(ConnectException.class);
                assertThat(f.channel().closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                timeout = f.cause();
            }
            assertThat(timeout).isInstanceOf(ConnectTimeoutException.class).hasMessageContaining("300 ms");
        }
    }

    @Test
    void anUnresolvedHostNameIsResolvedBeforeConnecting() throws Exception {
        Channel server = bind(server(new EchoHandler()));
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        Collector collector = new Collector(3);
        ChannelFuture f = client(collector).connect("localhost", port);
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        if (f.cause() != null) {
            // "localhost" may resolve to ::1 first while the server listens on 127.0.0.1 only.
            assertThat(f.cause()).isInstanceOf(ConnectException.class);
            return;
        }
        track(f.channel()).writeAndFlush(Unpooled.copiedBuffer(new byte[] {1, 2, 3}));
        assertThat(collector.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).containsExactly(1, 2, 3);
    }

    @Test
    void anUnknownHostFailsTheConnectFuture() throws Exception {
        ChannelFuture f = client(new ChannelHandler() { }).connect("no-such-host.invalid", 80);
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isInstanceOf(UnknownHostException.class);
    }

    /** A file region from an offset: every byte arrives, progress reaches its count, and it is released. */
    @Test
    void fileRegionIsSentWholeWithProgress(@TempDir Path dir) throws Exception {
        byte[] content = randomBytes(1024 * 1024 + 123, 7);
        File file = Files.write(dir.resolve("region.bin"), content).toFile();
        Channel server = bind(server(new EchoHandler()));
        int offset = 100;
        Collector collector = new Collector(content.length - offset);
        Channel client = connect(client(collector), server.localAddress());

        DefaultFileRegion region = new DefaultFileRegion(file, offset, content.length - offset);
        assertThat(region.isOpen()).as("opened lazily").isFalse();
        AtomicLong lastProgress = new AtomicLong();
        AtomicBoolean totalKnown = new AtomicBoolean(true);
        ChannelProgressivePromise promise = client.newProgressivePromise();
        promise.addListener(new ChannelProgressiveFutureListener() {
            @Override
            public void operationProgressed(ChannelProgressiveFuture future, long progress, long total) {
                lastProgress.set(progress);
                if (total != content.length - offset) {
                    totalKnown.set(false);
                }
            }

            @Override
            public void operationComplete(ChannelFuture future) {
            }
        });
        ChannelFuture write = client.writeAndFlush(region, promise);
        assertThat(write.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(write.cause()).isNull();
        byte[] expected = java.util.Arrays.copyOfRange(content, offset, content.length);
        assertThat(collector.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(expected);
        assertThat(region.refCnt()).as("released once sent").isZero();
        assertThat(region.transferred()).isEqualTo(content.length - offset);
        assertThat(lastProgress.get()).isEqualTo(content.length - offset);
        assertThat(totalKnown.get()).isTrue();
    }
}
