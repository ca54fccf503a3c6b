package io.weir.channel.kqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelException;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.DefaultFileRegion;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What only the kqueue TCP channels do: sendfile for file regions, their own options, refusing foreign loops. */
class KQueueSocketChannelTest {
    private static final long TIMEOUT_SECONDS = 30;
    private static final int FILE_BYTES = 1 << 20;

    private MultiThreadIoEventLoopGroup group;

    @BeforeAll
    static void requireKQueue() {
        assumeTrue(KQueue.isAvailable(), () -> "kqueue unavailable, so not tested: " + KQueue.unavailabilityCause());
    }

    @BeforeEach
    void startGroup() {
        group = new MultiThreadIoEventLoopGroup(2, KQueueIoHandler.newFactory());
    }

    @AfterEach
    void stopGroup() throws Exception {
        assertThat(group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isTrue();
    }

    private Channel bind(ChannelHandler childHandler) throws Exception {
        return new ServerBootstrap().group(group).channel(KQueueServerSocketChannel.class)
                .childHandler(childHandler)
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
    }

    private Channel connect(Channel server, ChannelHandler handler) throws Exception {
        return new Bootstrap().group(group).channel(KQueueSocketChannel.class).handler(handler)
                .connect(server.localAddress()).sync().channel();
    }

    @Test
    void aFileRegionArrivesByteForByte(@TempDir Path dir) throws Exception {
        byte[] content = new byte[FILE_BYTES];
        new Random(42).nextBytes(content);
        Path file = Files.write(dir.resolve("region.bin"), content);
        Channel server = bind(new ChannelHandler() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                ctx.writeAndFlush(new DefaultFileRegion(file.toFile(), 0, FILE_BYTES));
                ctx.fireChannelActive();
            }
        });
        Collector collector = new Collector(FILE_BYTES);
        Channel client = connect(server, collector);
        try {
            assertThat(collector.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(content);
        } finally {
            client.close().sync();
            server.close().sync();
        }
    }

    @Test
    void kqueueOptionsReachTheSocket() throws Exception {
        Channel server = new ServerBootstrap().group(group).channel(KQueueServerSocketChannel.class)
                .option(KQueueChannelOption.SO_REUSEPORT, true).childHandler(new ChannelHandler() { })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        Channel client = connect(server, new ChannelHandler() { });
        try {
            assertThat(server.config().getOption(KQueueChannelOption.SO_REUSEPORT)).isTrue();
            assertThat(client.config().setOption(KQueueChannelOption.TCP_NOPUSH, true)).isTrue();
            assertThat(client.config().getOption(KQueueChannelOption.TCP_NOPUSH)).isTrue();
            assertThat(client.config().getOption(KQueueChannelOption.SO_SNDLOWAT)).isPositive();
            if (KQueue.isEmulated()) {
                // Linux keeps SO_SNDLOWAT at 1 and says so with ENOPROTOOPT.
                assertThatThrownBy(() -> client.config().setOption(KQueueChannelOption.SO_SNDLOWAT, 4096))
                        .isInstanceOf(ChannelException.class).hasMessageContaining("SO_SNDLOWAT");
            } else {
                client.config().setOption(KQueueChannelOption.SO_SNDLOWAT, 4096);
                assertThat(client.config().getOption(KQueueChannelOption.SO_SNDLOWAT)).isEqualTo(4096);
            }
            assertThatThrownBy(() -> client.config().setOption(KQueueChannelOption.SO_SNDLOWAT, 0))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
        } finally {
            client.close().sync();
            server.close().sync();
        }
    }

    @Test
    void aLoopOfAnotherTransportIsRefused() throws Exception {
        MultiThreadIoEventLoopGroup nio = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        try {
            assertThatThrownBy(() -> new KQueueSocketChannel(nio.next())).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("KQueueIoHandler");
        } finally {
            nio.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Copies what it reads (releasing each buffer) and completes once {@code expected} bytes arrived. */
    private static final class Collector implements ChannelHandler {
        final CompletableFuture<byte[]> done = new CompletableFuture<>();
        private final ByteArrayOutputStream received = new ByteArrayOutputStream();
        private final int expected;

        Collector(int expected) {
            this.expected = expected;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                byte[] bytes = new byte[buf.readableBytes()];
                buf.readBytes(bytes);
                received.write(bytes, 0, bytes.length);
            } finally {
                buf.release();
            }
            if (received.size() >= expected) {
                done.complete(received.toByteArray());
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.completeExceptionally(cause);
        }
    }
}
