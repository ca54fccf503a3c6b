package io.weir.channel.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoop;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.WriteBufferWaterMark;
import io.weir.util.platform.PlatformInfo;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What is particular to TCP over io_uring, against real peers (an io_uring server, a JDK socket that never reads):
 * gathering writes, backpressure while sends wait in the kernel, and buffers lent to the kernel when a channel
 * closes. The scenarios every transport passes run over io_uring in the testsuite
 * ({@code IoUringTransportScenarioTest}).
 */
class IoUringSocketChannelTest {
    private static final long TIMEOUT_SECONDS = 10;
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    private static final int CHUNK_BYTES = 64 * 1024;
    /** Written to a peer that never reads: far more than the small socket buffers of that test hold. */
    private static final int UNREAD_CHUNKS = 64;
    private static final int SMALL_SOCKET_BUFFER_BYTES = 64 * 1024;

    private final List<Channel> channels = new ArrayList<>();
    private MultiThreadIoEventLoopGroup group;
    private EventLoop loop;

    @BeforeAll
    static void loadNatives() {
        assumeTrue(PlatformInfo.isLinux(), "io_uring exists only on Linux");
        IoUring.ensureAvailability();
    }

    @BeforeEach
    void start() {
        group = new MultiThreadIoEventLoopGroup(2, IoUringIoHandler.newFactory());
        loop = group.next();
    }

    @AfterEach
    void stop() throws Exception {
        for (Channel channel : channels) {
            channel.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        assertThat(group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isTrue();
    }

    private <C extends Channel> C track(C channel) {
        channels.add(channel);
        return channel;
    }

    private IoUringServerSocketChannel echoServer() throws Exception {
        IoUringServerSocketChannel server = track(new IoUringServerSocketChannel(loop, group));
        server.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                Channel child = track((Channel) msg);
                child.pipeline().addLast(new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ctx.write(msg);
                    }

                    @Override
                    public void channelReadComplete(ChannelHandlerContext ctx) {
                        ctx.flush();
                    }
                });
                child.register();
            }
        });
        server.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        server.bind(LOOPBACK).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return server;
    }

    private IoUringSocketChannel client(InetSocketAddress remote, ChannelHandler handler) throws Exception {
        IoUringSocketChannel client = track(new IoUringSocketChannel(group.next()));
        client.pipeline().addLast(handler);
        client.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        client.connect(remote).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return client;
    }

    /** Gathers {@code expected} bytes, releasing each buffer as it comes. */
    private static final class Received implements ChannelHandler {
        final CompletableFuture<byte[]> all = new CompletableFuture<>();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final int expected;

        Received(int expected) {
            this.expected = expected;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            byte[] copy = new byte[buf.readableBytes()];
            buf.readBytes(copy).release();
            bytes.write(copy, 0, copy.length);
            if (bytes.size() >= expected) {
                all.complete(bytes.toByteArray());
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            all.completeExceptionally(cause);
        }
    }

    @Test
    void echoesFourMebibytesOfRandomBytesUnchanged() throws Exception {
        IoUringServerSocketChannel server = echoServer();
        byte[] data = new byte[4 * 1024 * 1024];
        new Random(42).nextBytes(data);
        Received received = new Received(data.length);
        IoUringSocketChannel client = client(server.localAddress(), received);
        assertThat(client.isActive()).isTrue();
        assertThat(client.remoteAddress().getPort()).isEqualTo(server.localAddress().getPort());

        // A heap buffer (copied into direct memory on write) and direct ones, several flushes.
        client.write(Unpooled.wrappedBuffer(data, 0, CHUNK_BYTES));
        for (int offset = CHUNK_BYTES; offset < data.length; offset += CHUNK_BYTES) {
            client.write(ByteBufAllocator.DEFAULT.directBuffer(CHUNK_BYTES).writeBytes(data, offset, CHUNK_BYTES));
        }
        ChannelFuture flushed = client.writeAndFlush(Unpooled.EMPTY_BUFFER);

        assertThat(received.all.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(data);
        flushed.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void peerThatNeverReadsMakesTheChannelUnwritableUntilItReads() throws Exception {
        try (ServerSocket peer = new ServerSocket()) {
            peer.setReceiveBufferSize(SMALL_SOCKET_BUFFER_BYTES);
            peer.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            CompletableFuture<Boolean> unwritable = new CompletableFuture<>();
            CompletableFuture<Boolean> writableAgain = new CompletableFuture<>();
            IoUringSocketChannel client = track(new IoUringSocketChannel(loop));
            client.config().setOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                    new WriteBufferWaterMark(CHUNK_BYTES, 4 * CHUNK_BYTES));
            client.config().setOption(ChannelOption.SO_SNDBUF, SMALL_SOCKET_BUFFER_BYTES);
            client.pipeline().addLast(new ChannelHandler() {
                @Override
                public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                    (ctx.channel().isWritable() ? writableAgain : unwritable).complete(true);
                }
            });
            client.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            client.connect(new InetSocketAddress(peer.getInetAddress(), peer.getLocalPort()))
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            try (java.net.Socket accepted = peer.accept()) {
                // Far more than both kernels' buffers take: the rest stays queued in the channel above the high
                // water mark for as long as the peer does not read.
                loop.submit(() -> {
                    for (int i = 0; i < UNREAD_CHUNKS; i++) {
                        client.writeAndFlush(ByteBufAllocator.DEFAULT.directBuffer(CHUNK_BYTES)
                                .writeZero(CHUNK_BYTES));
                    }
                }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                assertThat(unwritable.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                assertThat(loop.submit(client::isWritable).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isFalse();
                assertThat(client.bytesBeforeWritable()).isPositive();

                // The peer reads everything: what was queued drains and the channel is writable again.
                long expected = (long) UNREAD_CHUNKS * CHUNK_BYTES;
                CompletableFuture<Long> drained = CompletableFuture.supplyAsync(() -> {
                    try (InputStream in = accepted.getInputStream()) {
                        byte[] sink = new byte[CHUNK_BYTES];
                        long total = 0;
                        while (total < expected) {
                            int n = in.read(sink);
                            if (n < 0) {
                                break;
                            }
                            total += n;
                        }
                        return total;
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                assertThat(writableAgain.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                assertThat(drained.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(expected);
            }
        }
    }

    /**
     * A receive waits for bytes that never come and a send for a peer that never reads; closing cancels both,
     * fails the queued writes, and releases every buffer once the kernel gave it back (PARANOID leak detection
     * fails the test otherwise).
     */
    @Test
    void closeWithOperationsInFlightReleasesEveryBufferAfterItsCompletion() throws Exception {
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            IoUringSocketChannel client = client(new InetSocketAddress(peer.getInetAddress(), peer.getLocalPort()),
                    new ChannelHandler() { });
            try (java.net.Socket ignored = peer.accept()) {
                List<ByteBuf> written = new ArrayList<>();
                EventLoop clientLoop = client.eventLoop();
                List<ChannelFuture> writes = clientLoop.submit(() -> {
                    List<ChannelFuture> futures = new ArrayList<>();
                    for (int i = 0; i < 256; i++) {
                        ByteBuf buf = ByteBufAllocator.DEFAULT.directBuffer(CHUNK_BYTES).writeZero(CHUNK_BYTES);
                        written.add(buf);
                        futures.add(client.writeAndFlush(buf));
                    }
                    return futures;
                }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                assertThat(writes.get(writes.size() - 1).isDone()).as("the peer reads nothing").isFalse();

                client.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

                assertThatThrownBy(() -> writes.get(writes.size() - 1).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                        .isInstanceOf(ExecutionException.class);
                // The send in flight held its buffer until its -ECANCELED completion; it arrives within a few
                // loop turns of the close.
                for (int turn = 0; turn < 100 && !allReleased(written); turn++) {
                    clientLoop.submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                }
                for (ByteBuf buf : written) {
                    assertThat(buf.refCnt()).isZero();
                }
            }
        }
    }

    private static boolean allReleased(List<ByteBuf> buffers) {
        for (ByteBuf buf : buffers) {
            if (buf.refCnt() > 0) {
                return false;
            }
        }
        return true;
    }

    @Test
    void serverChannelRefusesWritesAndLoopsOfOtherTransports() throws Exception {
        IoUringServerSocketChannel server = echoServer();
        assertThatThrownBy(() -> server.writeAndFlush(Unpooled.buffer(1)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .hasCauseInstanceOf(UnsupportedOperationException.class);
        MultiThreadIoEventLoopGroup nio = new MultiThreadIoEventLoopGroup(1,
                io.weir.channel.nio.NioIoHandler.newFactory());
        try {
            assertThatThrownBy(() -> new IoUringSocketChannel(nio.next()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("IoUringIoHandler");
        } finally {
            nio.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /**
     * A write and a close in one loop turn: the write's SQE names the descriptor by number, so it must reach the
     * kernel before the close frees that number (which the next accepted socket could take). The peer reads the
     * bytes, then the end of the stream.
     */
    @Test
    void writeThenCloseInOneLoopTurnDeliversTheWriteBeforeTheDescriptorCloses() throws Exception {
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            IoUringSocketChannel client = client(new InetSocketAddress(peer.getInetAddress(), peer.getLocalPort()),
                    new ChannelHandler() { });
            try (java.net.Socket accepted = peer.accept()) {
                accepted.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
                client.eventLoop().submit(() -> {
                    client.writeAndFlush(Unpooled.copiedBuffer("bye", java.nio.charset.StandardCharsets.US_ASCII));
                    client.close();
                }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                assertThat(accepted.getInputStream().readAllBytes())
                        .isEqualTo("bye".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            }
        }
    }

    /** A file region goes out by splice, waiting for writability on the ring when the socket is full. */
    @Test
    void fileRegionArrivesByteForByte(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        byte[] data = new byte[4 * 1024 * 1024];
        new Random(7).nextBytes(data);
        java.nio.file.Path file = java.nio.file.Files.write(dir.resolve("region.bin"), data);
        IoUringServerSocketChannel server = echoServer();
        Received received = new Received(data.length);
        IoUringSocketChannel client = client(server.localAddress(), received);
        client.config().setOption(ChannelOption.SO_SNDBUF, SMALL_SOCKET_BUFFER_BYTES);

        ChannelFuture written = client.writeAndFlush(
                new io.weir.channel.DefaultFileRegion(file.toFile(), 0, data.length));

        assertThat(received.all.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(data);
        written.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void bytesSentWhileTheChannelIsDeregisteredAreNotSentAgainAfterItRegistersAgain() throws Exception {
        // The server answers the first byte with 256 KiB and deregisters at once, its send still in flight; it
        // registers again, ends with one byte and closes. The client must get each byte once, in order.
        int answerBytes = 256 * 1024;
        IoUringServerSocketChannel server = track(new IoUringServerSocketChannel(loop, group));
        server.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                Channel child = track((Channel) msg);
                child.pipeline().addLast(new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ((ByteBuf) msg).release();
                        ByteBuf answer = ctx.alloc().directBuffer(answerBytes);
                        for (int i = 0; i < answerBytes; i++) {
                            answer.writeByte(i % 251);
                        }
                        ctx.writeAndFlush(answer);
                        ctx.deregister().addListener(f -> ctx.channel().register().addListener(r ->
                                ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {'Z'}))
                                        .addListener(w -> ctx.close())));
                    }
                });
                child.register();
            }
        });
        server.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        server.bind(LOOPBACK).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        InetSocketAddress address = (InetSocketAddress) server.localAddress();
        try (java.net.Socket socket = new java.net.Socket(address.getAddress(), address.getPort())) {
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            socket.getOutputStream().write('?');
            byte[] received = socket.getInputStream().readAllBytes();
            assertThat(received).as("each byte once, then the end").hasSize(answerBytes + 1);
            for (int i = 0; i < answerBytes; i++) {
                if (received[i] != (byte) (i % 251)) {
                    throw new AssertionError("byte " + i + " is " + received[i] + ", expected " + (i % 251));
                }
            }
            assertThat(received[answerBytes]).isEqualTo((byte) 'Z');
        }
    }

    @Test
    void aGreetingFlushedBeforeTheAcceptedChannelIsRegisteredGoesOutOnceItIs() throws Exception {
        // As an HTTP/2 server's preface is: written while the accepted channel's pipeline is set up, before the
        // channel has its registration, which io_uring needs to submit anything.
        IoUringServerSocketChannel server = track(new IoUringServerSocketChannel(loop, group));
        CompletableFuture<Throwable> greetingWrite = new CompletableFuture<>();
        server.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                Channel child = track((Channel) msg);
                child.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {'h', 'i'}))
                        .addListener(f -> greetingWrite.complete(f.cause()));
                child.register();
            }
        });
        server.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        server.bind(LOOPBACK).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        InetSocketAddress address = (InetSocketAddress) server.localAddress();
        try (java.net.Socket socket = new java.net.Socket(address.getAddress(), address.getPort())) {
            socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            assertThat(socket.getInputStream().readNBytes(2)).containsExactly('h', 'i');
        }
        assertThat(greetingWrite.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("the greeting's write succeeded").isNull();
    }
}
