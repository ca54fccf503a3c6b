package io.weir.channel.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.buffer.ByteBuf;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.util.platform.PlatformInfo;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * 10,000 connections over loopback to one io_uring loop receiving into its provided buffer ring: each sends one
 * byte and gets it back, then all close. The clients run in a child JVM, since a process of each side needs a
 * descriptor per connection and the limit ({@code ulimit -n}) is per process.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IoUringTenThousandConnectionsTest {
    private static final int CONNECTIONS = 10_000;
    /** Descriptors a process needs besides its connections: the JVM's own, the ring, the listener. */
    private static final int SPARE_DESCRIPTORS = 500;
    private static final long TIMEOUT_SECONDS = 40;

    /**
     * Entry point of the child JVM: connects {@code args[2]} sockets to {@code args[0]}:{@code args[1]}, writes one
     * byte on each ({@code i % 251}), reads each echo back and checks it, then closes them all with a reset
     * ({@code SO_LINGER} 0, so no port stays in TIME_WAIT). Prints "echoed N" or the failure.
     */
    public static void main(String[] args) throws IOException {
        InetSocketAddress server = new InetSocketAddress(InetAddress.getByName(args[0]), Integer.parseInt(args[1]));
        int count = Integer.parseInt(args[2]);
        SocketChannel[] sockets = new SocketChannel[count];
        try {
            for (int i = 0; i < count; i++) {
                sockets[i] = SocketChannel.open(server);
                sockets[i].setOption(StandardSocketOptions.SO_LINGER, 0);
            }
            ByteBuffer one = ByteBuffer.allocate(1);
            for (int i = 0; i < count; i++) {
                one.clear();
                one.put(0, (byte) (i % 251));
                sockets[i].write(one);
            }
            int echoed = 0;
            for (int i = 0; i < count; i++) {
                one.clear();
                if (sockets[i].read(one) != 1 || one.get(0) != (byte) (i % 251)) {
                    System.out.println("connection " + i + " echoed " + one.flip());
                    break;
                }
                echoed++;
            }
            System.out.println("echoed " + echoed);
        } finally {
            for (SocketChannel socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
    }

    /** The soft limit on descriptors ({@code ulimit -n}) from {@code /proc/self/limits}; -1 if unreadable. */
    private static long maxDescriptors() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/limits"), StandardCharsets.US_ASCII)) {
            if (line.startsWith("Max open files")) {
                String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                return "unlimited".equals(soft) ? Long.MAX_VALUE : Long.parseLong(soft);
            }
        }
        return -1;
    }

    @Test
    void tenThousandConnectionsEachEchoOnceThenAllClose(@TempDir Path dir) throws Exception {
        assumeTrue(PlatformInfo.isLinux(), "io_uring exists only on Linux");
        IoUring.ensureAvailability();
        long limit = maxDescriptors();
        assumeTrue(limit >= CONNECTIONS + SPARE_DESCRIPTORS, "ulimit -n is " + limit + ", below the "
                + (CONNECTIONS + SPARE_DESCRIPTORS) + " descriptors each side of " + CONNECTIONS
                + " connections needs");
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(1, IoUringIoHandler.newFactory());
        AtomicInteger active = new AtomicInteger();
        AtomicInteger echoedBytes = new AtomicInteger();
        CountDownLatch allClosed = new CountDownLatch(CONNECTIONS);
        try {
            IoUringServerSocketChannel server = new IoUringServerSocketChannel(group.next(), group);
            server.pipeline().addLast(new ChannelHandler() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    Channel child = (Channel) msg;
                    child.pipeline().addLast(new ChannelHandler() {
                        @Override
                        public void channelActive(ChannelHandlerContext ctx) {
                            active.incrementAndGet();
                        }

                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            echoedBytes.addAndGet(((ByteBuf) msg).readableBytes());
                            ctx.writeAndFlush(msg);
                        }

                        @Override
                        public void channelInactive(ChannelHandlerContext ctx) {
                            allClosed.countDown();
                        }

                        @Override
                        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                            // The clients reset their connections: ECONNRESET is the expected end.
                            ctx.close();
                        }
                    });
                    child.register();
                }
            });
            server.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            InetSocketAddress address = server.localAddress();

            Path out = dir.resolve("clients.txt");
            Process clients = new ProcessBuilder(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"),
                    IoUringTenThousandConnectionsTest.class.getName(),
                    address.getAddress().getHostAddress(), Integer.toString(address.getPort()),
                    Integer.toString(CONNECTIONS)))
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            boolean finished = clients.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (!finished) {
                clients.destroyForcibly();
            }
            String output = Files.readString(out, StandardCharsets.UTF_8);

            assertThat(finished).as("clients finished: %s", output).isTrue();
            assertThat(clients.exitValue()).as(output).isZero();
            assertThat(output).as(output).contains("echoed " + CONNECTIONS);
            assertThat(allClosed.await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .as("server channels closed: %d left", allClosed.getCount()).isTrue();
            assertThat(active.get()).isEqualTo(CONNECTIONS);
            assertThat(echoedBytes.get()).isEqualTo(CONNECTIONS);
            server.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } finally {
            assertThat(group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isTrue();
        }
    }
}
