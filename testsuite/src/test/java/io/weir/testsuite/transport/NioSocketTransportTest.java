package io.weir.testsuite.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInputShutdownEvent;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelProgressiveFuture;
import io.weir.channel.ChannelProgressiveFutureListener;
import io.weir.channel.ChannelProgressivePromise;
import io.weir.channel.ChannelShutdownEvent;
import io.weir.channel.ConnectTimeoutException;
import io.weir.channel.DefaultFileRegion;
import io.weir.channel.DuplexChannel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import java.io.File;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NioSocketTransportTest extends AbstractTransportScenarioTest {

    @Override
    EventLoopGroup newGroup() {
        return new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    }

    @Override
    ServerBootstrap serverChannel(ServerBootstrap b) {
        return b.channel(NioServerSocketChannel.class);
    }

    @Override
    Bootstrap clientChannel(Bootstrap b) {
        return b.channel(NioSocketChannel.class);
    }

    @Override
    SocketAddress bindAddress() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    @Override
    void smallTransportBuffers(ServerBootstrap server, Bootstrap client) {
        server.childOption(ChannelOption.SO_RCVBUF, 8 * 1024);
        client.option(ChannelOption.SO_SNDBUF, 8 * 1024);
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

    @Test
    void halfClosureKeepsTheOtherDirectionOpenBothWays() throws Exception {
        CompletableFuture<String> serverSaw = new CompletableFuture<>();
        CompletableFuture<Boolean> serverReplyWritten = new CompletableFuture<>();
        ServerBootstrap sb = server(new ChannelHandler() {
            final StringBuilder text = new StringBuilder();

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf buf = (ByteBuf) msg;
                text.append(buf.toString(StandardCharsets.US_ASCII));
                buf.release();
            }

            @Override
            public void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) {
                if (event instanceof ChannelInputShutdownEvent) {
                    DuplexChannel ch = (DuplexChannel) ctx.channel();
                    serverSaw.complete(text + (ch.isInputShutdown() && !ch.isOutputShutdown() && ch.isOpen()
                            ? "|half-open" : "|wrong state"));
                    // The peer stopped sending; this side may still answer, then say goodbye itself.
                    ctx.writeAndFlush(Unpooled.copiedBuffer("pong", StandardCharsets.US_ASCII))
                            .addListener(f -> {
                                serverReplyWritten.complete(f.isSuccess());
                                ch.shutdownOutput();
                            });
                }
            }
        }).childOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        CompletableFuture<String> clientSaw = new CompletableFuture<>();
        StringBuilder clientText = new StringBuilder();
        Bootstrap cb = client(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf buf = (ByteBuf) msg;
                clientText.append(buf.toString(StandardCharsets.US_ASCII));
                buf.release();
            }

            @Override
            public void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) {
                if (event instanceof ChannelInputShutdownEvent) {
                    clientSaw.complete(clientText + (ctx.channel().isOpen() ? "|open" : "|closed"));
                }
            }
        }).option(ChannelOption.ALLOW_HALF_CLOSURE, true);
        Channel server = bind(sb);
        DuplexChannel client = (DuplexChannel) connect(cb, server.localAddress());

        client.writeAndFlush(Unpooled.copiedBuffer("ping", StandardCharsets.US_ASCII));
        ChannelFuture shutdown = client.shutdownOutput();
        assertThat(shutdown.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(shutdown.cause()).isNull();
        assertThat(client.isOutputShutdown()).isTrue();

        assertThat(serverSaw.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("ping|half-open");
        assertThat(serverReplyWritten.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(clientSaw.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("pong|open");
        assertThat(client.isInputShutdown()).isTrue();
        // Writing after shutting the output down fails instead of vanishing.
        ChannelFuture late = client.writeAndFlush(Unpooled.copiedBuffer("late", StandardCharsets.US_ASCII));
        assertThat(late.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(late.isSuccess()).isFalse();
    }

    @Test
    void endOfStreamWithoutHalfClosureClosesTheChannel() throws Exception {
        CountDownLatch childInactive = new CountDownLatch(1);
        Channel server = bind(server(new ChannelHandler() {
            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                childInactive.countDown();
            }
        }));
        DuplexChannel client = (DuplexChannel) connect(client(new ChannelHandler() { }), server.localAddress());
        client.shutdownOutput();
        assertThat(childInactive.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

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

    @Test
    void connectionRefusedFailsTheFutureWithConnectException() throws Exception {
        int port;
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            probe.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            port = ((InetSocketAddress) probe.getLocalAddress()).getPort();
        }
        ChannelFuture f = client(new ChannelHandler() { })
                .connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isInstanceOf(ConnectException.class).hasMessageContaining(String.valueOf(port));
        assertThat(f.channel().closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
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
        assertThat(f.cause()).isInstanceOf(java.net.UnknownHostException.class);
    }
}
