package io.weir.channel.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.WriteBufferWaterMark;
import io.weir.util.platform.PlatformInfo;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Receiving into the loop's provided buffer ring with multishot receives, against real peers: data intact and in
 * order through a ring far too small for the load, the event when it runs dry, backpressure, and the buffers the
 * kernel holds or the pipeline holds when a channel closes or the loop shuts down.
 */
class IoUringBufferRingTest {
    private static final long TIMEOUT_SECONDS = 10;
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    private static final int SMALL_BUFFER_BYTES = 256;
    private static final int SMALL_BUFFER_COUNT = 4;
    private static final int ODD_BUFFER_BYTES = 2048;

    private final List<Channel> channels = new CopyOnWriteArrayList<>();
    private final List<MultiThreadIoEventLoopGroup> groups = new ArrayList<>();

    @BeforeAll
    static void loadNatives() {
        assumeTrue(PlatformInfo.isLinux(), "io_uring exists only on Linux");
        IoUring.ensureAvailability();
        assumeTrue(IoUring.isProvidedBufferRingSupported(),
                "this kernel lacks provided buffer rings with multishot receive (Linux 6.3)");
    }

    @AfterEach
    void stop() throws Exception {
        for (Channel channel : channels) {
            channel.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        for (MultiThreadIoEventLoopGroup group : groups) {
            assertThat(group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isTrue();
        }
    }

    private MultiThreadIoEventLoopGroup group(int threads, IoHandlerFactory factory) {
        MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(threads, factory);
        groups.add(group);
        return group;
    }

    private <C extends Channel> C track(C channel) {
        channels.add(channel);
        return channel;
    }

    /** A server on {@code group}'s loops whose accepted channels get {@code child} (made per channel). */
    private InetSocketAddress server(MultiThreadIoEventLoopGroup group, ChildSetup child) throws Exception {
        IoUringServerSocketChannel server = track(new IoUringServerSocketChannel(group.next(), group));
        server.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                IoUringSocketChannel accepted = track((IoUringSocketChannel) msg);
                child.setUp(accepted);
                accepted.register();
            }
        });
        server.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        server.bind(LOOPBACK).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return server.localAddress();
    }

    @FunctionalInterface
    private interface ChildSetup {
        void setUp(IoUringSocketChannel child);
    }

    /** Writes back what it reads. */
    private static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /** Polls {@code condition} on {@code loop} (a round trip each time) until it holds or the timeout passes. */
    private static boolean eventually(EventLoop loop, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (System.nanoTime() < deadline) {
            if (loop.submit(condition).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                return true;
            }
        }
        return false;
    }

    private static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /*
     * The writer gets a thread of its own, never the common pool's: with two cores that pool has one worker, and
     * a reader blocked on the echo would keep its own writer (queued behind it) from ever running.
     */
    private static byte[] echoOverJdkSocket(InetSocketAddress address, byte[] payload) throws Exception {
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            return echo(socket, payload);
        }
    }

    /** Writes {@code payload} on a thread of its own while reading its echo from {@code socket}. */
    private static byte[] echo(Socket socket, byte[] payload) throws Exception {
        CompletableFuture<Void> writer = new CompletableFuture<>();
        Thread writing = new Thread(() -> {
            try {
                socket.getOutputStream().write(payload);
                socket.getOutputStream().flush();
                writer.complete(null);
            } catch (Exception e) {
                writer.completeExceptionally(e);
            }
        }, "echo-writer");
        writing.setDaemon(true);
        writing.start();
        byte[] echoed = socket.getInputStream().readNBytes(payload.length);
        writer.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return echoed;
    }

    /**
     * {@code connections} JDK clients each echo {@code bytesEach} random bytes through {@code address} at once and
     * check them. A thread per connection: they all send at once, which is the point, and none waits for a pool
     * worker.
     */
    private static void echoAllAtOnce(InetSocketAddress address, int connections, int bytesEach, long firstSeed)
            throws Exception {
        List<CompletableFuture<Boolean>> results = new ArrayList<>();
        ExecutorService clients = Executors.newFixedThreadPool(connections);
        try {
            for (int i = 0; i < connections; i++) {
                long seed = firstSeed + i;
                results.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        byte[] payload = randomBytes(bytesEach, seed);
                        return Arrays.equals(echoOverJdkSocket(address, payload), payload);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }, clients));
            }
            for (CompletableFuture<Boolean> result : results) {
                assertThat(result.get(30, TimeUnit.SECONDS)).as("echoed intact and in order").isTrue();
            }
        } finally {
            clients.shutdownNow();
        }
    }

    /** Records the capacity of every buffer the children it is added to read, then passes it on. */
    @ChannelHandler.Sharable
    private static final class Capacities implements ChannelHandler {
        final List<Integer> seen = new CopyOnWriteArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            seen.add(((ByteBuf) msg).capacity());
            ctx.fireChannelRead(msg);
        }
    }

    /** {@code rounds} messages of {@code size} bytes, each echoed before the next is sent. */
    private static void pingPong(Socket socket, int rounds, int size) throws Exception {
        for (int i = 0; i < rounds; i++) {
            byte[] message = randomBytes(size, 1000 + i);
            socket.getOutputStream().write(message);
            assertThat(socket.getInputStream().readNBytes(size)).isEqualTo(message);
        }
    }

    /**
     * One connection: a bulk transfer moves its receive to the large buffers, and the small messages that follow
     * bring it back to the small ones, all on the default factory's two rings.
     */
    @Test
    void aBulkTransferReceivesIntoLargeBuffersAndSmallMessagesMoveItBack() throws Exception {
        MultiThreadIoEventLoopGroup group = group(1, IoUringIoHandler.newFactory());
        Capacities capacities = new Capacities();
        InetSocketAddress address = server(group, child -> child.pipeline().addLast(capacities, new Echo()));
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            byte[] bulk = randomBytes(8 << 20, 21);
            assertThat(echo(socket, bulk)).isEqualTo(bulk);
            assertThat(capacities.seen).as("large buffers during the bulk transfer")
                    .contains(IoUringIoHandler.DEFAULT_LARGE_BUFFER_SIZE_BYTES);

            int rounds = 4 * IoUringIoHandler.SMALL_READS_TO_SHRINK;
            pingPong(socket, rounds, 100);
            List<Integer> last = capacities.seen.subList(capacities.seen.size() - rounds / 2, capacities.seen.size());
            assertThat(last).as("small buffers again for small messages")
                    .containsOnly(IoUringIoHandler.DEFAULT_BUFFER_SIZE_BYTES);
        }
    }

    @Test
    void aConnectionOfSmallMessagesNeverTakesALargeBuffer() throws Exception {
        MultiThreadIoEventLoopGroup group = group(1, IoUringIoHandler.newFactory());
        Capacities capacities = new Capacities();
        InetSocketAddress address = server(group, child -> child.pipeline().addLast(capacities, new Echo()));
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            pingPong(socket, 50, 1000);
        }
        assertThat(capacities.seen).hasSize(50).containsOnly(IoUringIoHandler.DEFAULT_BUFFER_SIZE_BYTES);
    }

    /**
     * A large ring of two buffers under many bulk senders runs dry: the channels hear
     * {@link IoUringBufferRingExhaustedEvent}, every byte still arrives intact and in order, and the ring serves
     * large reads again afterwards.
     */
    @Test
    void aTinyLargeRingRunsDryFiresTheEventAndRecovers() throws Exception {
        MultiThreadIoEventLoopGroup serverGroup = group(1, IoUringIoHandler.newFactory(
                IoUringIoHandler.DEFAULT_RING_ENTRIES, IoUringIoHandler.DEFAULT_CQ_ENTRIES,
                IoUringIoHandler.DEFAULT_BUFFER_SIZE_BYTES, IoUringIoHandler.DEFAULT_BUFFER_COUNT,
                IoUringIoHandler.DEFAULT_LARGE_BUFFER_SIZE_BYTES, IoUringIoHandler.MIN_LARGE_RING_BUFFERS));
        AtomicInteger dryEvents = new AtomicInteger();
        CompletableFuture<IoUringBufferRing> largeRing = new CompletableFuture<>();
        Capacities capacities = new Capacities();
        InetSocketAddress address = server(serverGroup, child -> child.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                IoUringBufferRing ring = child.receivingRing();
                if (ring.bufferSize() == IoUringIoHandler.DEFAULT_LARGE_BUFFER_SIZE_BYTES) {
                    largeRing.complete(ring);
                }
                ctx.fireChannelRead(msg);
            }

            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                if (evt == IoUringBufferRingExhaustedEvent.INSTANCE) {
                    dryEvents.incrementAndGet();
                }
            }
        }, capacities, new Echo()));
        echoAllAtOnce(address, 16, 1 << 20, 200);
        IoUringBufferRing ring = largeRing.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        EventLoop loop = serverGroup.next();
        assertThat(loop.submit(ring::exhaustions).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("the large ring ran dry")
                .isPositive();
        assertThat(dryEvents.get()).isPositive();

        capacities.seen.clear();
        byte[] payload = randomBytes(2 << 20, 300);
        assertThat(echoOverJdkSocket(address, payload)).isEqualTo(payload);
        assertThat(capacities.seen).as("large reads again").contains(IoUringIoHandler.DEFAULT_LARGE_BUFFER_SIZE_BYTES);
        assertThat(eventually(loop, () -> ring.available() == ring.count())).as("every large buffer back: %s", ring)
                .isTrue();
    }

    @Test
    void receivedBuffersAreTheLoopsProvidedBuffersAndEchoUnchanged() throws Exception {
        MultiThreadIoEventLoopGroup group = group(1, IoUringIoHandler.newFactory(
                IoUringIoHandler.DEFAULT_RING_ENTRIES, IoUringIoHandler.DEFAULT_CQ_ENTRIES, ODD_BUFFER_BYTES, 64));
        List<Integer> capacities = new CopyOnWriteArrayList<>();
        CompletableFuture<IoUringBufferRing> ring = new CompletableFuture<>();
        InetSocketAddress address = server(group, child -> child.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                ring.complete(child.providedBuffers());
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                capacities.add(((ByteBuf) msg).capacity());
                ctx.fireChannelRead(msg);
            }
        }, new Echo()));
        byte[] payload = randomBytes(1 << 20, 1);

        assertThat(echoOverJdkSocket(address, payload)).isEqualTo(payload);
        assertThat(ring.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isNotNull();
        assertThat(capacities).isNotEmpty().allMatch(c -> c == ODD_BUFFER_BYTES);
    }

    @Test
    void aTinyRingServesManyConnectionsSendingAtOnceWithAllDataIntactAndInOrder() throws Exception {
        MultiThreadIoEventLoopGroup serverGroup = group(1, IoUringIoHandler.newFactory(
                IoUringIoHandler.DEFAULT_RING_ENTRIES, IoUringIoHandler.DEFAULT_CQ_ENTRIES, SMALL_BUFFER_BYTES,
                SMALL_BUFFER_COUNT));
        AtomicInteger dryEvents = new AtomicInteger();
        InetSocketAddress address = server(serverGroup, child -> child.pipeline().addLast(new ChannelHandler() {
            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                if (evt == IoUringBufferRingExhaustedEvent.INSTANCE) {
                    dryEvents.incrementAndGet();
                }
            }
        }, new Echo()));
        echoAllAtOnce(address, 32, 256 * 1024, 100);
        assertThat(dryEvents.get()).as("the ring of " + SMALL_BUFFER_COUNT + " buffers ran dry").isPositive();
    }

    @Test
    void closingAChannelWhileItsMultishotReceiveDeliversGivesEveryBufferBackToTheRing() throws Exception {
        MultiThreadIoEventLoopGroup group = group(1, IoUringIoHandler.newFactory(
                IoUringIoHandler.DEFAULT_RING_ENTRIES, IoUringIoHandler.DEFAULT_CQ_ENTRIES, SMALL_BUFFER_BYTES, 16));
        EventLoop loop = group.next();
        CompletableFuture<IoUringSocketChannel> closed = new CompletableFuture<>();
        CompletableFuture<IoUringBufferRing> ringOfChild = new CompletableFuture<>();
        InetSocketAddress address = server(group, child -> child.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ((ByteBuf) msg).release();
                // The multishot receive is still armed, with more chunks of this batch already completed.
                if (!closed.isDone()) {
                    assertThat(child.isMultishotArmed()).isTrue();
                    ringOfChild.complete(child.providedBuffers());
                    ctx.close();
                    closed.complete(child);
                }
            }
        }));
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.getOutputStream().write(randomBytes(64 * 1024, 7));
            IoUringSocketChannel child = closed.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(child.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            IoUringBufferRing ring = ringOfChild.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(eventually(loop, () -> ring.available() == ring.count()))
                    .as("every buffer back in the ring: %s", ring).isTrue();
        }
        // The loop and its ring serve the next connection as before.
        byte[] payload = randomBytes(100_000, 8);
        InetSocketAddress echo = server(group, child -> child.pipeline().addLast(new Echo()));
        assertThat(echoOverJdkSocket(echo, payload)).isEqualTo(payload);
    }

    @Test
    void shuttingTheLoopDownWithBuffersOutLeavesThemIntactForTheirHolderToRelease() throws Exception {
        MultiThreadIoEventLoopGroup group = group(1, IoUringIoHandler.newFactory(
                IoUringIoHandler.DEFAULT_RING_ENTRIES, IoUringIoHandler.DEFAULT_CQ_ENTRIES, SMALL_BUFFER_BYTES, 64));
        List<ByteBuf> held = new CopyOnWriteArrayList<>();
        AtomicInteger heldBytes = new AtomicInteger();
        byte[] payload = randomBytes(8 * 1024, 9);
        CountDownLatch all = new CountDownLatch(1);
        InetSocketAddress address = server(group, child -> child.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf buf = (ByteBuf) msg;
                held.add(buf);
                if (heldBytes.addAndGet(buf.readableBytes()) == payload.length) {
                    all.countDown();
                }
            }
        }));
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.getOutputStream().write(payload);
            assertThat(all.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            // The connection is still open, its receive armed, when the loop goes away.
            assertThat(group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isTrue();
        }
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        for (ByteBuf buf : held) {
            byte[] bytes = new byte[buf.readableBytes()];
            buf.getBytes(buf.readerIndex(), bytes);
            received.write(bytes, 0, bytes.length);
        }
        assertThat(received.toByteArray()).isEqualTo(payload);
        for (ByteBuf buf : held) {
            assertThat(buf.release()).isTrue();
        }
    }

    @Test
    void withoutABufferCountEachConnectionReceivesIntoABufferOfItsOwn() throws Exception {
        MultiThreadIoEventLoopGroup group = group(1, IoUringIoHandler.newFactory(
                IoUringIoHandler.DEFAULT_RING_ENTRIES, IoUringIoHandler.DEFAULT_CQ_ENTRIES,
                IoUringIoHandler.DEFAULT_BUFFER_SIZE_BYTES, 0));
        CompletableFuture<IoUringBufferRing> ring = new CompletableFuture<>();
        InetSocketAddress address = server(group, child -> child.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                ring.complete(child.providedBuffers());
            }
        }, new Echo()));
        byte[] payload = randomBytes(1 << 20, 2);

        assertThat(echoOverJdkSocket(address, payload)).isEqualTo(payload);
        assertThat(ring.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isNull();
    }

    @Test
    void turningAutoReadOffStopsTheMultishotReceiveAndReadDeliversWhatWaited() throws Exception {
        MultiThreadIoEventLoopGroup group = group(1, IoUringIoHandler.newFactory());
        EventLoop loop = group.next();
        CompletableFuture<IoUringSocketChannel> first = new CompletableFuture<>();
        ByteArrayOutputStream afterRead = new ByteArrayOutputStream();
        CountDownLatch second = new CountDownLatch(1);
        InetSocketAddress address = server(group, child -> child.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf buf = (ByteBuf) msg;
                if (!first.isDone()) {
                    buf.release();
                    ctx.channel().config().setAutoRead(false);
                    first.complete(child);
                    return;
                }
                byte[] bytes = new byte[buf.readableBytes()];
                buf.readBytes(bytes).release();
                afterRead.write(bytes, 0, bytes.length);
                if (afterRead.size() == 5) {
                    second.countDown();
                }
            }
        }));
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write('a');
            IoUringSocketChannel child = first.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(eventually(loop, () -> !child.isMultishotArmed())).as("receive stopped").isTrue();
            out.write("later".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            child.read();
            assertThat(second.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(afterRead.toString(StandardCharsets.US_ASCII)).isEqualTo("later");
        }
    }

    @Test
    void aNeverReadingPeerBacksUpAloneWhileAnotherClientOnTheSameLoopIsServed() throws Exception {
        MultiThreadIoEventLoopGroup group = group(1, IoUringIoHandler.newFactory());
        EventLoop loop = group.next();
        int chunkBytes = 64 * 1024;
        int chunks = 256;
        AtomicInteger written = new AtomicInteger();
        CompletableFuture<IoUringSocketChannel> flooded = new CompletableFuture<>();
        InetSocketAddress address = server(group, child -> {
            child.config().setOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                    new WriteBufferWaterMark(chunkBytes, 4 * chunkBytes));
            child.config().setOption(ChannelOption.SO_SNDBUF, chunkBytes);
            child.pipeline().addLast(new ChannelHandler() {
                private boolean flooding;

                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    ByteBuf buf = (ByteBuf) msg;
                    if (buf.getByte(buf.readerIndex()) != 'F') {
                        ctx.writeAndFlush(msg);
                        return;
                    }
                    buf.release();
                    // A response streamed to a client that never reads: stop reading, write while writable.
                    ctx.channel().config().setAutoRead(false);
                    flooding = true;
                    flood(ctx);
                    flooded.complete(child);
                }

                @Override
                public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                    if (flooding) {
                        flood(ctx);
                    }
                }

                private void flood(ChannelHandlerContext ctx) {
                    while (written.get() < chunks && ctx.channel().isWritable()) {
                        written.incrementAndGet();
                        ctx.writeAndFlush(Unpooled.directBuffer(chunkBytes).writeZero(chunkBytes));
                    }
                }
            });
        });
        try (Socket neverReads = new Socket()) {
            neverReads.setReceiveBufferSize(chunkBytes);
            neverReads.connect(address);
            neverReads.getOutputStream().write('F');
            IoUringSocketChannel floodedChild = flooded.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(eventually(loop, () -> !floodedChild.isWritable()))
                    .as("backpressure on the never-reading peer's channel").isTrue();

            byte[] ping = randomBytes(100_000, 3);
            assertThat(echoOverJdkSocket(address, ping)).as("the other client is served").isEqualTo(ping);
            assertThat(loop.submit(() -> !floodedChild.isWritable() && floodedChild.isActive())
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("still backed up, still open").isTrue();
            assertThat(written.get()).as("writing stopped while the peer does not read").isLessThan(chunks);
        }
    }

    @Test
    void aChannelRegisteredAgainKeepsReceivingOnceItsOldReceiveEnded() throws Exception {
        MultiThreadIoEventLoopGroup group = group(1, IoUringIoHandler.newFactory());
        CountDownLatch reRegistered = new CountDownLatch(1);
        InetSocketAddress address = server(group, child -> child.pipeline().addLast(new ChannelHandler() {
            private boolean first = true;

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (!first) {
                    ctx.writeAndFlush(msg);
                    return;
                }
                // No write in flight across the deregistration: only the receive is in question here.
                ((ByteBuf) msg).release();
                if (first) {
                    first = false;
                    // Cancels the multishot receive in flight; the new registration must not wait for it forever.
                    ctx.deregister().addListener(f -> ctx.channel().register().addListener(r -> {
                        if (r.isSuccess()) {
                            reRegistered.countDown();
                        }
                    }));
                }
            }
        }));
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            socket.getOutputStream().write('a');
            assertThat(reRegistered.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            socket.getOutputStream().write('b');
            assertThat(socket.getInputStream().read()).as("served after registering again").isEqualTo('b');
        }
    }

    @Test
    void theFactoryRefusesBufferSettingsTheKernelWouldNotTakeNamingTheValue() {
        int entries = IoUringIoHandler.DEFAULT_RING_ENTRIES;
        int cq = IoUringIoHandler.DEFAULT_CQ_ENTRIES;
        assertThatThrownBy(() -> IoUringIoHandler.newFactory(entries, cq, 4096, 1000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bufferCount: 1000");
        assertThatThrownBy(() -> IoUringIoHandler.newFactory(entries, cq, 4096, 65536))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bufferCount: 65536");
        assertThatThrownBy(() -> IoUringIoHandler.newFactory(entries, cq, 0, 1024))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bufferSize: 0");
        assertThatThrownBy(() -> IoUringIoHandler.newFactory(entries, cq, IoUringIoHandler.MAX_BUFFER_SIZE_BYTES + 1,
                1024)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bufferSize: ");
    }

    @Test
    void theRingTakesAtMostAnEighthOfTheDirectMemoryLimit() {
        int size = 4096;
        long mib = 1 << 20;
        assertThat(IoUringIoHandler.ringBufferCount(1024, size, 64 * mib)).as("room to spare").isEqualTo(1024);
        assertThat(IoUringIoHandler.ringBufferCount(1024, size, 32 * mib)).as("exactly an eighth").isEqualTo(1024);
        assertThat(IoUringIoHandler.ringBufferCount(1024, size, 8 * mib)).as("1 MiB of 8").isEqualTo(256);
        assertThat(IoUringIoHandler.ringBufferCount(1024, size, 3 * mib)).as("96 fit: a power of two")
                .isEqualTo(64);
        assertThat(IoUringIoHandler.ringBufferCount(1024, size, mib / 4)).as("fewer than the minimum: no ring")
                .isZero();
    }

    @Test
    void theLargeRingGetsWhatTheSmallOneLeftOfTheEighthAndTheFactoryChecksItsSettings() {
        int size = 64 * 1024;
        long mib = 1 << 20;
        assertThat(IoUringIoHandler.largeRingBufferCount(64, size, 4 * mib)).as("exactly the budget").isEqualTo(64);
        assertThat(IoUringIoHandler.largeRingBufferCount(64, size, 3 * mib)).as("48 fit: a power of two")
                .isEqualTo(32);
        assertThat(IoUringIoHandler.largeRingBufferCount(64, size, size)).as("fewer than the minimum: no ring")
                .isZero();
        assertThat(IoUringIoHandler.largeRingBufferCount(64, size, -mib)).as("the small ring took it all").isZero();
        int entries = IoUringIoHandler.DEFAULT_RING_ENTRIES;
        int cq = IoUringIoHandler.DEFAULT_CQ_ENTRIES;
        assertThatThrownBy(() -> IoUringIoHandler.newFactory(entries, cq, 4096, 1024, 4096, 64))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("largeBufferSize: 4096");
        assertThatThrownBy(() -> IoUringIoHandler.newFactory(entries, cq, 4096, 1024, 65536, 48))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("largeBufferCount: 48");
    }
}
