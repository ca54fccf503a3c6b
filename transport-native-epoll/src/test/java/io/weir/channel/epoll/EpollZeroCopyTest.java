package io.weir.channel.epoll;

import static io.weir.channel.epoll.EpollChannels.TIMEOUT_SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelProgressivePromise;
import io.weir.channel.DefaultFileRegion;
import io.weir.channel.FileRegion;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.EpollChannels.Collector;
import io.weir.channel.unix.FileDescriptor;
import io.weir.util.AbstractReferenceCounted;
import java.io.EOFException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sendfile of file regions and splice between connections and into files, over loopback. */
class EpollZeroCopyTest extends AbstractEpollChannelTest {
    private static final int MIB = 1024 * 1024;
    /** Far below the data sizes, so every transfer meets a full socket and waits for EPOLLOUT. */
    private static final int SMALL_SOCKET_BUFFER_BYTES = 32 * 1024;

    @TempDir
    Path dir;

    private final Random random = new Random(7);

    EpollZeroCopyTest() {
        // One loop: splicing channels must share theirs.
        super(1);
    }

    private byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /** A server whose accepted channels get {@code handler}; the accepted channel completes {@code accepted}. */
    private EpollServerSocketChannel server(ChannelHandler handler, CompletableFuture<Channel> accepted)
            throws Exception {
        return track(EpollChannels.server(loop, group, s -> { }, c -> {
            track(c);
            c.config().setOption(ChannelOption.SO_SNDBUF, SMALL_SOCKET_BUFFER_BYTES);
            accepted.complete(c);
        }, () -> handler));
    }

    private EpollSocketChannel client(EpollServerSocketChannel server, ChannelHandler handler) throws Exception {
        return track(EpollChannels.client(loop, server.localAddress(),
                c -> c.config().setOption(ChannelOption.SO_SNDBUF, SMALL_SOCKET_BUFFER_BYTES), handler));
    }

    // ---------------------------------------------------------------- sendfile

    @Test
    void fileRegionLargerThanTheSocketBuffersArrivesByteIdenticalWithProgressReported() throws Exception {
        byte[] data = randomBytes(4 * MIB);
        Path file = Files.write(dir.resolve("data.bin"), data);
        Collector collector = new Collector(data.length);
        EpollServerSocketChannel server = server(collector, new CompletableFuture<>());
        EpollSocketChannel client = client(server, new ChannelHandler() { });
        DefaultFileRegion region = new DefaultFileRegion(file.toFile(), 0, data.length);
        ChannelProgressivePromise promise = client.newProgressivePromise();
        AtomicLong lastProgress = new AtomicLong();
        promise.addListener(new io.weir.channel.ChannelProgressiveFutureListener() {
            @Override
            public void operationProgressed(io.weir.channel.ChannelProgressiveFuture future, long progress,
                                            long total) {
                lastProgress.set(progress);
            }

            @Override
            public void operationComplete(ChannelFuture future) {
            }
        });

        client.writeAndFlush(region, promise);

        assertThat(collector.await()).isEqualTo(data);
        promise.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(region.refCnt()).isZero();
        assertThat(region.transferred()).as("sendfile reports its progress in the region").isEqualTo(data.length);
        assertThat(lastProgress.get()).isEqualTo(data.length);
    }

    @Test
    void fileRegionInTheMiddleOfAFileSendsExactlyItsBytesBetweenBuffers() throws Exception {
        byte[] data = randomBytes(MIB);
        Path file = Files.write(dir.resolve("middle.bin"), data);
        int position = 1000;
        int count = data.length - 3000;
        Collector collector = new Collector(count + 4);
        EpollServerSocketChannel server = server(collector, new CompletableFuture<>());
        EpollSocketChannel client = client(server, new ChannelHandler() { });

        client.write(Unpooled.wrappedBuffer(new byte[] {1, 2}));
        client.write(new DefaultFileRegion(new RandomAccessFile(file.toFile(), "r").getChannel(), position, count));
        client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {3, 4})).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        byte[] expected = new byte[count + 4];
        expected[0] = 1;
        expected[1] = 2;
        System.arraycopy(data, position, expected, 2, count);
        expected[count + 2] = 3;
        expected[count + 3] = 4;
        assertThat(collector.await()).isEqualTo(expected);
    }

    @Test
    void fileRegionOfAnotherKindIsSentThroughItsOwnTransferTo() throws Exception {
        byte[] data = randomBytes(3 * MIB);
        Collector collector = new Collector(data.length);
        EpollServerSocketChannel server = server(collector, new CompletableFuture<>());
        EpollSocketChannel client = client(server, new ChannelHandler() { });
        HeapRegion region = new HeapRegion(data);

        client.writeAndFlush(region).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        assertThat(collector.await()).isEqualTo(data);
        assertThat(region.refCnt()).isZero();
    }

    @Test
    void fileShorterThanItsRegionFailsTheWriteInsteadOfSpinning() throws Exception {
        Path file = Files.write(dir.resolve("short.bin"), randomBytes(1000));
        Collector collector = new Collector(Integer.MAX_VALUE);
        EpollServerSocketChannel server = server(collector, new CompletableFuture<>());
        EpollSocketChannel client = client(server, new ChannelHandler() { });
        DefaultFileRegion region = new DefaultFileRegion(file.toFile(), 0, 5000);

        ChannelFuture written = client.writeAndFlush(region);

        assertThatThrownBy(() -> written.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(IOException.class)
                .hasMessageContaining("file shorter than the region");
        assertThat(region.refCnt()).isZero();
    }

    // ---------------------------------------------------------------- splice

    /** Counts the reads it is given and completes {@code firstRead} with the first one's bytes. */
    private static final class ReadCounter implements ChannelHandler {
        final AtomicInteger reads = new AtomicInteger();
        final CompletableFuture<byte[]> firstRead = new CompletableFuture<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                reads.incrementAndGet();
                byte[] bytes = new byte[buf.readableBytes()];
                buf.readBytes(bytes);
                firstRead.complete(bytes);
            } finally {
                buf.release();
            }
        }
    }

    @Test
    void spliceMovesBytesBetweenConnectionsWithoutThemEnteringJava() throws Exception {
        // sender -> source (accepted) =splice=> target (client) -> receiver (accepted)
        ReadCounter sourceReads = new ReadCounter();
        CompletableFuture<Channel> sourceAccepted = new CompletableFuture<>();
        EpollServerSocketChannel sourceServer = server(sourceReads, sourceAccepted);
        Collector receiver = new Collector(4 * MIB);
        EpollServerSocketChannel targetServer = server(receiver, new CompletableFuture<>());
        EpollSocketChannel sender = client(sourceServer, new ChannelHandler() { });
        EpollSocketChannel target = client(targetServer, new ChannelHandler() { });
        EpollSocketChannel source = (EpollSocketChannel) sourceAccepted.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        byte[] data = randomBytes(4 * MIB);

        ChannelFuture spliced = source.spliceTo(target, data.length);
        sender.writeAndFlush(Unpooled.wrappedBuffer(data));

        assertThat(receiver.await()).isEqualTo(data);
        spliced.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(sourceReads.reads.get()).as("no byte went through the source's pipeline").isZero();

        // Once the splice is done, reading resumes as configured (auto-read): the pipeline sees what follows.
        sender.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {42}));
        assertThat(sourceReads.firstRead.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).containsExactly(42);
        assertThat(source.isActive()).isTrue();
    }

    @Test
    void spliceWorksWithAutoReadOffAndQueuedSplicesRunInOrder() throws Exception {
        CompletableFuture<Channel> sourceAccepted = new CompletableFuture<>();
        EpollServerSocketChannel sourceServer = track(EpollChannels.server(loop, group, s -> { }, c -> {
            track(c);
            c.config().setOption(ChannelOption.AUTO_READ, false);
            sourceAccepted.complete(c);
        }, ReadCounter::new));
        Collector first = new Collector(300_000);
        Collector second = new Collector(200_000);
        EpollSocketChannel sender = client(sourceServer, new ChannelHandler() { });
        EpollSocketChannel firstTarget = client(server(first, new CompletableFuture<>()), new ChannelHandler() { });
        EpollSocketChannel secondTarget = client(server(second, new CompletableFuture<>()), new ChannelHandler() { });
        EpollSocketChannel source = (EpollSocketChannel) sourceAccepted.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        byte[] data = randomBytes(500_000);

        sender.writeAndFlush(Unpooled.wrappedBuffer(data));
        ChannelFuture one = source.spliceTo(firstTarget, 300_000);
        ChannelFuture two = source.spliceTo(secondTarget, 200_000);

        assertThat(first.await()).isEqualTo(java.util.Arrays.copyOfRange(data, 0, 300_000));
        assertThat(second.await()).isEqualTo(java.util.Arrays.copyOfRange(data, 300_000, 500_000));
        one.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        two.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void spliceQueuedBeforeRegistrationRunsEvenWithAutoReadOff() throws Exception {
        Collector receiver = new Collector(100_000);
        EpollSocketChannel target = client(server(receiver, new CompletableFuture<>()), new ChannelHandler() { });
        CompletableFuture<ChannelFuture> spliced = new CompletableFuture<>();
        EpollServerSocketChannel sourceServer = track(EpollChannels.server(loop, group, s -> { }, c -> {
            track(c);
            c.config().setOption(ChannelOption.AUTO_READ, false);
            // Runs before the accepted channel is registered.
            spliced.complete(((EpollSocketChannel) c).spliceTo(target, 100_000));
        }, ReadCounter::new));
        EpollSocketChannel sender = client(sourceServer, new ChannelHandler() { });
        byte[] data = randomBytes(100_000);

        sender.writeAndFlush(Unpooled.wrappedBuffer(data));

        assertThat(receiver.await()).isEqualTo(data);
        spliced.get(TIMEOUT_SECONDS, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void spliceFailsWithEofWhenThePeerClosesBeforeAllBytesCame() throws Exception {
        CompletableFuture<Channel> sourceAccepted = new CompletableFuture<>();
        EpollServerSocketChannel sourceServer = server(new ReadCounter(), sourceAccepted);
        Collector receiver = new Collector(10);
        EpollSocketChannel sender = client(sourceServer, new ChannelHandler() { });
        EpollSocketChannel target = client(server(receiver, new CompletableFuture<>()), new ChannelHandler() { });
        EpollSocketChannel source = (EpollSocketChannel) sourceAccepted.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        ChannelFuture spliced = source.spliceTo(target, 1000);
        sender.writeAndFlush(Unpooled.wrappedBuffer(new byte[10]));
        assertThat(receiver.await()).hasSize(10);
        sender.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        assertThatThrownBy(() -> spliced.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(EOFException.class)
                .hasMessageContaining("990 bytes");
        source.closeFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void spliceToAChannelOfAnotherLoopOrToItselfIsRefused() throws Exception {
        MultiThreadIoEventLoopGroup other = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        try {
            CompletableFuture<Channel> accepted = new CompletableFuture<>();
            EpollServerSocketChannel server = server(new ReadCounter(), accepted);
            EpollSocketChannel client = client(server, new ChannelHandler() { });
            EpollSocketChannel elsewhere = new EpollSocketChannel(other.next());
            try {
                assertThatThrownBy(() -> client.spliceTo(elsewhere, 10))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("share their loop");
                assertThatThrownBy(() -> client.spliceTo(client, 10))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("itself");
                assertThatThrownBy(() -> client.spliceTo((EpollSocketChannel) accepted.get(), 0))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("len: 0");
            } finally {
                elsewhere.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        } finally {
            other.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void spliceIntoAFileWritesTheBytesAtTheOffset() throws Exception {
        CompletableFuture<Channel> sourceAccepted = new CompletableFuture<>();
        EpollServerSocketChannel sourceServer = server(new ReadCounter(), sourceAccepted);
        EpollSocketChannel sender = client(sourceServer, new ChannelHandler() { });
        EpollSocketChannel source = (EpollSocketChannel) sourceAccepted.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        byte[] data = randomBytes(MIB);
        Path file = dir.resolve("spliced.bin");
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            // The JDK owns the descriptor; the FileDescriptor only names it and is never closed here.
            FileDescriptor fd = new FileDescriptor(descriptorOf(file));

            ChannelFuture spliced = source.spliceTo(fd, 100, data.length);
            sender.writeAndFlush(Unpooled.wrappedBuffer(data));
            spliced.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

            assertThat(raf.length()).isEqualTo(100 + data.length);
        }
        byte[] written = Files.readAllBytes(file);
        assertThat(java.util.Arrays.copyOfRange(written, 100, written.length)).isEqualTo(data);
    }

    /** The number of the one descriptor of this process open on {@code file}. */
    private static int descriptorOf(Path file) throws IOException {
        Path real = file.toRealPath();
        try (var fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    if (Files.readSymbolicLink(fd).equals(real)) {
                        return Integer.parseInt(fd.getFileName().toString());
                    }
                } catch (IOException e) {
                    // Closed while listing (the listing's own descriptor): not the file.
                }
            }
        }
        throw new IllegalStateException("no descriptor open on " + real);
    }

    /** A {@link FileRegion} that is not a {@link DefaultFileRegion}: bytes from the heap through transferTo. */
    private static final class HeapRegion extends AbstractReferenceCounted implements FileRegion {
        private final byte[] data;
        private long transferred;

        HeapRegion(byte[] data) {
            this.data = data;
        }

        @Override
        public long position() {
            return 0;
        }

        @Override
        public long transferred() {
            return transferred;
        }

        @Override
        public long count() {
            return data.length;
        }

        @Override
        public long transferTo(WritableByteChannel target, long position) throws IOException {
            int written = target.write(ByteBuffer.wrap(data, (int) position, data.length - (int) position));
            transferred += written;
            return written;
        }

        @Override
        protected void deallocate() {
        }

        @Override
        public FileRegion retain() {
            super.retain();
            return this;
        }

        @Override
        public FileRegion retain(int increment) {
            super.retain(increment);
            return this;
        }

        @Override
        public FileRegion touch() {
            return this;
        }

        @Override
        public FileRegion touch(Object hint) {
            return this;
        }
    }
}
