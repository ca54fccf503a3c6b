package io.weir.channel.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelOption;
import io.weir.channel.DefaultFileRegion;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.util.platform.PlatformInfo;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link io.weir.channel.DefaultFileRegion}s sent by {@code IORING_OP_SPLICE} (file, pipe, socket), against a JDK
 * socket as the peer, which checks every byte: big files, a slice of a file, a file shorter than its region, a peer
 * that never reads, and a close while a splice is in flight.
 */
class IoUringFileRegionSpliceTest {
    private static final long TIMEOUT_SECONDS = 10;
    private static final int SMALL_SOCKET_BUFFER_BYTES = 64 * 1024;
    /** Several times the pipe's capacity, so a region takes many fills and drains. */
    private static final int LARGE_FILE_BYTES = 8 * 1024 * 1024 + 4321;
    /** Loop turns a channel waiting for writability is watched for: a spinning one would splice on each. */
    private static final int WATCHED_TURNS = 50;

    private final List<Channel> channels = new ArrayList<>();
    private MultiThreadIoEventLoopGroup group;
    private ServerSocket peer;
    @TempDir
    Path dir;

    @BeforeAll
    static void requireSplice() {
        assumeTrue(PlatformInfo.isLinux(), "io_uring exists only on Linux");
        IoUring.ensureAvailability();
        assumeTrue(FileRegionSplicer.SUPPORTED, "the kernel has no IORING_OP_SPLICE (Linux 5.7)");
    }

    @BeforeEach
    void start() throws IOException {
        group = new MultiThreadIoEventLoopGroup(1, IoUringIoHandler.newFactory());
        peer = new ServerSocket();
        peer.setReceiveBufferSize(SMALL_SOCKET_BUFFER_BYTES);
        peer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
    }

    @AfterEach
    void stop() throws Exception {
        for (Channel channel : channels) {
            channel.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        peer.close();
        assertThat(group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isTrue();
    }

    private IoUringSocketChannel connect() throws Exception {
        IoUringSocketChannel client = new IoUringSocketChannel(group.next());
        channels.add(client);
        client.config().setOption(ChannelOption.SO_SNDBUF, SMALL_SOCKET_BUFFER_BYTES);
        client.pipeline().addLast(new ChannelHandler() { });
        client.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        client.connect(peer.getLocalSocketAddress()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return client;
    }

    private Path file(int size, long seed) throws IOException {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return Files.write(dir.resolve("region-" + seed + ".bin"), data);
    }

    private static long crc(byte[] data, int offset, int length) {
        CRC32 crc = new CRC32();
        crc.update(data, offset, length);
        return crc.getValue();
    }

    /** Reads exactly {@code length} bytes from {@code accepted} on a thread of its own and returns their CRC-32. */
    private static CompletableFuture<Long> readCrc(Socket accepted, long length) {
        CompletableFuture<Long> result = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try {
                InputStream in = accepted.getInputStream();
                CRC32 crc = new CRC32();
                byte[] chunk = new byte[64 * 1024];
                long left = length;
                while (left > 0) {
                    int n = in.read(chunk, 0, (int) Math.min(chunk.length, left));
                    if (n < 0) {
                        throw new IOException("end of stream with " + left + " bytes to go");
                    }
                    crc.update(chunk, 0, n);
                    left -= n;
                }
                result.complete(crc.getValue());
            } catch (IOException | RuntimeException e) {
                result.completeExceptionally(e);
            }
        }, "region-reader");
        reader.setDaemon(true);
        reader.start();
        return result;
    }

    private static <T> T onLoop(Channel channel, Callable<T> task) throws Exception {
        return channel.eventLoop().submit(task).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void largeFileArrivesWholeThroughThePipe() throws Exception {
        IoUringSocketChannel client = connect();
        Path path = file(LARGE_FILE_BYTES, 1);
        byte[] data = Files.readAllBytes(path);
        try (Socket accepted = peer.accept()) {
            CompletableFuture<Long> received = readCrc(accepted, data.length);
            DefaultFileRegion region = new DefaultFileRegion(path.toFile(), 0, data.length);

            client.writeAndFlush(region).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

            assertThat(received.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(crc(data, 0, data.length));
            assertThat(region.transferred()).isEqualTo(data.length);
            assertThat(region.refCnt()).as("released once sent").isZero();
            assertThat(onLoop(client, () -> client.splicer().splicedBytes()))
                    .as("every byte went file -> pipe -> socket").isEqualTo(data.length);
            assertThat(onLoop(client, () -> client.splicer().operations()))
                    .as("a fill and at least one drain per pipe load")
                    .isGreaterThanOrEqualTo(2L * data.length / FileRegionSplicer.PIPE_CAPACITY_BYTES);
        }
    }

    @Test
    void regionInTheMiddleOfAFileSendsOnlyItsSlice() throws Exception {
        Path path = file(3 * 1024 * 1024, 2);
        byte[] data = Files.readAllBytes(path);
        int position = 1024 * 1024 + 17;
        int count = 1024 * 1024 + 1001;
        IoUringSocketChannel client = connect();
        try (Socket accepted = peer.accept()) {
            CompletableFuture<Long> received = readCrc(accepted, count);
            DefaultFileRegion region = new DefaultFileRegion(path.toFile(), position, count);

            ChannelFuture written = client.writeAndFlush(region);
            // A marker right behind the region: it must arrive after the slice, not in it.
            client.writeAndFlush(io.weir.buffer.Unpooled.wrappedBuffer(new byte[] {42}));

            written.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(received.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(crc(data, position, count));
            assertThat(accepted.getInputStream().read()).isEqualTo(42);
            assertThat(region.transferred()).isEqualTo(count);
        }
    }

    @Test
    void fileShorterThanItsRegionFailsTheWriteInsteadOfHanging() throws Exception {
        int size = 200 * 1024;
        Path path = file(size, 3);
        IoUringSocketChannel client = connect();
        try (Socket accepted = peer.accept()) {
            CompletableFuture<Long> received = readCrc(accepted, size);
            DefaultFileRegion region = new DefaultFileRegion(path.toFile(), 0, size + 1000);

            ChannelFuture written = client.writeAndFlush(region);

            assertThatThrownBy(() -> written.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(IOException.class).hasMessageContaining("file shorter than the region");
            // What the file held went out before the end was met.
            received.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(client.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(region.refCnt()).isZero();
        }
    }

    /**
     * A peer that reads nothing: the splice finds the socket full and the channel waits on a poll, submitting no
     * further splice however many loop turns pass; once the peer reads, the rest follows intact.
     */
    @Test
    void neverReadingPeerParksTheSpliceOnAPollWithoutSpinning() throws Exception {
        Path path = file(LARGE_FILE_BYTES, 4);
        byte[] data = Files.readAllBytes(path);
        IoUringSocketChannel client = connect();
        try (Socket accepted = peer.accept()) {
            ChannelFuture written = client.writeAndFlush(new DefaultFileRegion(path.toFile(), 0, data.length));
            awaitParkedOnPoll(client);
            long operations = onLoop(client, () -> client.splicer().operations());
            for (int turn = 0; turn < WATCHED_TURNS; turn++) {
                assertThat(onLoop(client, () -> client.isAwaitingWritable() && !client.splicer().isInFlight()))
                        .as("still waiting for writability").isTrue();
            }
            assertThat(onLoop(client, () -> client.splicer().operations())).isEqualTo(operations);
            assertThat(written.isDone()).isFalse();

            CompletableFuture<Long> received = readCrc(accepted, data.length);
            written.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(received.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(crc(data, 0, data.length));
        }
    }

    /** Waits, a loop turn at a time, until the channel has spliced some bytes and waits for writability. */
    private static void awaitParkedOnPoll(IoUringSocketChannel client) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (!onLoop(client, () -> client.splicer() != null && client.splicer().splicedBytes() > 0
                && client.isAwaitingWritable() && !client.splicer().isInFlight())) {
            assertThat(System.nanoTime()).as("the splice never met a full socket").isLessThan(deadline);
        }
    }

    /**
     * Writes {@code region} and calls {@code then} in the same loop turn, while the first splice is in flight:
     * the write's future and the one {@code then} returned.
     */
    private static List<ChannelFuture> writeAndInTheSameTurn(IoUringSocketChannel client, DefaultFileRegion region,
                                                             Callable<ChannelFuture> then) throws Exception {
        return onLoop(client, () -> {
            ChannelFuture write = client.writeAndFlush(region);
            assertThat(client.splicer().isInFlight()).as("a splice in flight").isTrue();
            return List.of(write, then.call());
        });
    }

    /**
     * The region and the pipe are released once the splice in flight completed (with its result or
     * {@code -ECANCELED}); waits for that a loop turn at a time, up to the timeout.
     */
    private static void assertReleasedWithThePipe(IoUringSocketChannel client, DefaultFileRegion region)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while ((region.refCnt() > 0 || onLoop(client, client.splicer()::hasPipe)) && System.nanoTime() < deadline) {
            onLoop(client, () -> null);
        }
        assertThat(region.refCnt()).isZero();
        assertThat(onLoop(client, client.splicer()::hasPipe)).as("pipe closed").isFalse();
    }

    /**
     * Closing while a splice is in flight: the write fails, the region (whose file descriptor the operation names)
     * is released only after that splice completed, and the pipe is closed then too.
     */
    @Test
    void closeWithASpliceInFlightReleasesTheRegionAndThePipeAfterItsCompletion() throws Exception {
        Path path = file(LARGE_FILE_BYTES, 5);
        IoUringSocketChannel client = connect();
        try (Socket ignored = peer.accept()) {
            DefaultFileRegion region = new DefaultFileRegion(path.toFile(), 0, LARGE_FILE_BYTES);
            List<ChannelFuture> futures = writeAndInTheSameTurn(client, region, client::close);
            ChannelFuture written = futures.get(0);

            futures.get(1).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThatThrownBy(() -> written.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
            assertReleasedWithThePipe(client, region);
            assertThat(onLoop(client, client.splicer()::isInFlight)).isFalse();
        }
    }

    /**
     * Shutting output down while a splice is in flight: the region's write fails, the peer reads the end of the
     * stream after whatever part of the region had gone out, and the channel stays open for input.
     */
    @Test
    void shuttingOutputDownWithASpliceInFlightFailsTheRegionButKeepsTheChannel() throws Exception {
        Path path = file(LARGE_FILE_BYTES, 7);
        IoUringSocketChannel client = connect();
        try (Socket accepted = peer.accept()) {
            DefaultFileRegion region = new DefaultFileRegion(path.toFile(), 0, LARGE_FILE_BYTES);
            List<ChannelFuture> futures = writeAndInTheSameTurn(client, region, client::shutdownOutput);

            futures.get(1).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThatThrownBy(() -> futures.get(0).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(io.weir.channel.ChannelOutputShutdownException.class);
            accepted.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            long read = accepted.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
            assertThat(read).as("at most the region, then the end of the stream").isLessThan(LARGE_FILE_BYTES);
            assertThat(client.isOpen()).isTrue();
            assertThat(client.isOutputShutdown()).isTrue();
            assertReleasedWithThePipe(client, region);
        }
    }

    /** A region made from a file channel the caller opened is spliced as well, and the channel stays the caller's. */
    @Test
    void regionOverAnOpenFileChannelIsSplicedToo() throws Exception {
        Path path = file(1024 * 1024, 6);
        byte[] data = Files.readAllBytes(path);
        IoUringSocketChannel client = connect();
        try (Socket accepted = peer.accept();
             java.nio.channels.FileChannel file = java.nio.channels.FileChannel.open(path)) {
            CompletableFuture<Long> received = readCrc(accepted, data.length);
            DefaultFileRegion region = new DefaultFileRegion(file, 0, data.length);
            region.retain();
            client.writeAndFlush(region).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(received.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(crc(data, 0, data.length));
            assertThat(onLoop(client, () -> client.splicer().splicedBytes())).isEqualTo(data.length);
            assertThat(file.isOpen()).as("the caller's retained reference keeps it open").isTrue();
            assertThat(region.release()).isTrue();
        }
    }
}
