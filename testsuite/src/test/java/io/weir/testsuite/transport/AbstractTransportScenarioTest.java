package io.weir.testsuite.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelInputShutdownEvent;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelShutdownEvent;
import io.weir.channel.DuplexChannel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.WriteBufferWaterMark;
import java.net.ConnectException;
import java.net.SocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Socket scenarios written once and run over each transport: a subclass says which channel types, group and
 * addresses to use. Every buffer a test allocates is released; leak detection is PARANOID.
 */
abstract class AbstractTransportScenarioTest {
    static final long TIMEOUT_SECONDS = 30;

    EventLoopGroup group;
    final List<Channel> channels = new ArrayList<>();

    /** A group of two loops on which channels of this transport can run. */
    abstract EventLoopGroup newGroup();

    /** Sets the server channel type on {@code b}. */
    abstract ServerBootstrap serverChannel(ServerBootstrap b);

    /** Sets the client channel type on {@code b}. */
    abstract Bootstrap clientChannel(Bootstrap b);

    /** Where servers bind (an ephemeral port or a fresh name). */
    abstract SocketAddress bindAddress();

    /** An address of this transport's kind at which nothing listens (a port just freed, a name never bound). */
    abstract SocketAddress unboundAddress() throws Exception;

    /** Makes the transport's own buffering (socket buffers) small, so that backpressure shows quickly. */
    void smallTransportBuffers(ServerBootstrap server, Bootstrap client) {
    }

    /**
     * Whether this transport's connections are {@link DuplexChannel}s that can shut one direction down; the
     * half-closure scenarios are skipped (reported as such) where they are not.
     */
    boolean supportsHalfClosure() {
        return true;
    }

    @BeforeEach
    void startGroup() {
        group = newGroup();
    }

    @AfterEach
    void stopGroup() throws Exception {
        for (Channel ch : channels) {
            ch.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    Channel track(Channel ch) {
        synchronized (channels) {
            channels.add(ch);
        }
        return ch;
    }

    ServerBootstrap server(ChannelHandler childHandler) {
        return serverChannel(new ServerBootstrap().group(group)).childHandler(childHandler);
    }

    Bootstrap client(ChannelHandler handler) {
        return clientChannel(new Bootstrap().group(group)).handler(handler);
    }

    Channel bind(ServerBootstrap b) throws Exception {
        ChannelFuture f = b.bind(bindAddress());
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isNull();
        return track(f.channel());
    }

    Channel connect(Bootstrap b, SocketAddress address) throws Exception {
        ChannelFuture f = b.connect(address);
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isNull();
        return track(f.channel());
    }

    static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** Does nothing; shared by every channel that needs no handler of its own. */
    @ChannelHandler.Sharable
    static final class Noop implements ChannelHandler {
    }

    static final ChannelHandler NOOP = new Noop();

    /** Writes back whatever it reads. */
    @ChannelHandler.Sharable
    static final class EchoHandler implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }

    /** Copies every byte read into one array, completing {@code done} once {@code expected} bytes came. */
    static final class Collector implements ChannelHandler {
        final byte[] received;
        final AtomicInteger count = new AtomicInteger();
        final CompletableFuture<byte[]> done = new CompletableFuture<>();

        Collector(int expected) {
            received = new byte[expected];
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            int n = buf.readableBytes();
            int at = count.get();
            if (at + n > received.length) {
                buf.release();
                done.completeExceptionally(new AssertionError("more bytes than expected: " + (at + n)));
                return;
            }
            buf.readBytes(received, at, n);
            // Released before completing: a test that sees the bytes may check that every buffer is gone.
            buf.release();
            if (count.addAndGet(n) == received.length) {
                done.complete(received);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.completeExceptionally(cause);
        }
    }

    static ChannelInitializer<Channel> init(ChannelHandler handler) {
        return new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(handler);
            }
        };
    }

    @Test
    void aConnectionMadeTheInstantBindCompletesIsServed() throws Exception {
        // ServerBootstrap's guarantee: a completed bind means the acceptor is in place. Many rounds, since a race
        // between the bind and the acceptor's installation would lose only some of them.
        for (int round = 0; round < 50; round++) {
            Channel server = bind(server(new EchoHandler()));
            Collector collector = new Collector(1);
            Channel client = connect(client(collector), server.localAddress());
            client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {(byte) round}));
            assertThat(collector.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("round %d", round)
                    .containsExactly((byte) round);
            client.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            server.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    private void echo(byte[] data, int chunk) throws Exception {
        Channel server = bind(server(new EchoHandler()));
        Collector collector = new Collector(data.length);
        Channel client = connect(client(collector), server.localAddress());
        for (int i = 0; i < data.length; i += chunk) {
            int n = Math.min(chunk, data.length - i);
            // Heap buffers: the transport copies them into direct memory (or hands them over, for local).
            client.write(Unpooled.copiedBuffer(data, i, n));
        }
        client.flush();
        byte[] echoed = collector.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(echoed).isEqualTo(data);
    }

    @Test
    void smallMessagesComeBackUnchanged() throws Exception {
        echo(randomBytes(64, 1), 16);
    }

    @Test
    void tenMebibytesOfRandomBytesComeBackByteForByte() throws Exception {
        echo(randomBytes(10 * 1024 * 1024, 2), 64 * 1024);
    }

    @Test
    void aThousandConcurrentConnectionsAreEachEchoed() throws Exception {
        int connections = 1000;
        // Connects are started in waves no larger than the smallest default accept queue (NIO's 50), so that a
        // full queue never drops a SYN and leaves a connect waiting for the kernel's retransmission; every
        // connection stays open until all of them have been echoed.
        int wave = 50;
        Channel server = bind(server(new EchoHandler()));
        List<Collector> collectors = new ArrayList<>();
        List<Channel> clients = new ArrayList<>();
        for (int first = 0; first < connections; first += wave) {
            List<ChannelFuture> connects = new ArrayList<>();
            for (int i = first; i < Math.min(first + wave, connections); i++) {
                Collector collector = new Collector(32);
                collectors.add(collector);
                connects.add(client(collector).connect(server.localAddress()));
            }
            for (ChannelFuture f : connects) {
                assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
                assertThat(f.cause()).isNull();
                clients.add(track(f.channel()));
            }
        }
        for (int i = 0; i < connections; i++) {
            clients.get(i).writeAndFlush(Unpooled.copiedBuffer(randomBytes(32, i)));
        }
        for (int i = 0; i < connections; i++) {
            assertThat(collectors.get(i).done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(randomBytes(32, i));
        }
        for (Channel client : clients) {
            assertThat(client.isActive()).isTrue();
        }
    }

    @Test
    void manySmallBuffersFlushedAtOnceArriveInOrder() throws Exception {
        int buffers = 5000;
        byte[] expected = new byte[buffers * 7];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = (byte) (i * 31 + i / 7);
        }
        Channel server = bind(server(new EchoHandler()));
        Collector collector = new Collector(expected.length);
        Channel client = connect(client(collector), server.localAddress());
        List<ChannelFuture> writes = new ArrayList<>();
        List<ByteBuf> heapBuffers = new ArrayList<>();
        client.eventLoop().submit(() -> {
            for (int i = 0; i < buffers; i++) {
                ByteBuf buf;
                if (i % 2 == 0) {
                    buf = client.alloc().directBuffer(7);
                } else {
                    buf = Unpooled.buffer(7);
                    heapBuffers.add(buf);
                }
                buf.writeBytes(expected, i * 7, 7);
                writes.add(client.write(buf));
            }
            client.flush();
        }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(collector.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(expected);
        for (ChannelFuture f : writes) {
            assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(f.cause()).isNull();
        }
        // Written buffers belong to the transport, which released them (after copying, for heap ones).
        for (ByteBuf buf : heapBuffers) {
            assertThat(buf.refCnt()).isZero();
        }
    }

    /**
     * A receiver that reads only when asked: the sender's queue passes the high water mark, the sender turns
     * unwritable, and the receiver holds nothing it did not ask for.
     */
    @Test
    void slowReaderWithAutoReadOffTurnsTheWriterUnwritable() throws Exception {
        AtomicLong serverReceived = new AtomicLong();
        AtomicLong target = new AtomicLong(-1);
        CountDownLatch allReceived = new CountDownLatch(1);
        AtomicInteger serverReads = new AtomicInteger();
        AtomicReference<Channel> serverChild = new AtomicReference<>();
        CountDownLatch childActive = new CountDownLatch(1);
        AtomicReference<CountDownLatch> readDone = new AtomicReference<>(new CountDownLatch(1));
        ServerBootstrap sb = server(new ChannelHandler() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                serverChild.set(ctx.channel());
                childActive.countDown();
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf buf = (ByteBuf) msg;
                if (serverReceived.addAndGet(buf.readableBytes()) == target.get()) {
                    allReceived.countDown();
                }
                buf.release();
            }

            @Override
            public void channelReadComplete(ChannelHandlerContext ctx) {
                serverReads.incrementAndGet();
                readDone.get().countDown();
            }
        }).childOption(ChannelOption.AUTO_READ, false);
        CountDownLatch unwritable = new CountDownLatch(1);
        CountDownLatch writableAgain = new CountDownLatch(1);
        Bootstrap cb = client(new ChannelHandler() {
            @Override
            public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                if (ctx.channel().isWritable()) {
                    writableAgain.countDown();
                } else {
                    unwritable.countDown();
                }
            }
        }).option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(16 * 1024, 32 * 1024));
        smallTransportBuffers(sb, cb);
        Channel server = bind(sb);
        Channel client = connect(cb, server.localAddress());
        assertThat(childActive.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();

        int chunk = 4096;
        long maxBytes = 256L * 1024 * 1024;
        AtomicReference<ChannelFuture> lastWrite = new AtomicReference<>();
        long written = client.eventLoop().submit(() -> {
            long total = 0;
            while (client.isWritable() && total < maxBytes) {
                ByteBuf buf = client.alloc().directBuffer(chunk);
                buf.writeZero(chunk);
                lastWrite.set(client.writeAndFlush(buf));
                total += chunk;
            }
            return total;
        }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        // The loop stopped writing because the channel turned unwritable, not because it hit the cap.
        assertThat(written).isLessThan(maxBytes);
        assertThat(unwritable.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(serverReceived.get()).as("bytes the receiver holds without having asked").isZero();

        // One read() delivers one bounded batch, no more.
        serverChild.get().read();
        assertThat(readDone.get().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        long afterOneRead = serverReceived.get();
        assertThat(afterOneRead).isPositive().isLessThan(written);

        target.set(written);
        serverChild.get().config().setAutoRead(true);
        assertThat(writableAgain.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(lastWrite.get().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(lastWrite.get().cause()).isNull();
        assertThat(allReceived.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(serverReceived.get()).isEqualTo(written);
    }

    @Test
    void closeWithPendingWritesFailsTheirPromisesAndReleasesTheBuffers() throws Exception {
        CountDownLatch childActive = new CountDownLatch(1);
        AtomicReference<Channel> serverChild = new AtomicReference<>();
        ServerBootstrap sb = server(new ChannelHandler() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                serverChild.set(ctx.channel());
                childActive.countDown();
            }
        }).childOption(ChannelOption.AUTO_READ, false);
        Bootstrap cb = client(new ChannelHandler() { });
        smallTransportBuffers(sb, cb);
        Channel server = bind(sb);
        Channel client = connect(cb, server.localAddress());
        assertThat(childActive.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();

        List<ChannelFuture> writes = new ArrayList<>();
        List<ByteBuf> buffers = new ArrayList<>();
        client.eventLoop().submit(() -> {
            // Fill the transport until writes queue up, then queue some more and close behind them.
            long limit = 256L * 1024 * 1024;
            long total = 0;
            while (client.isWritable() && total < limit) {
                ByteBuf buf = Unpooled.directBuffer(8192).writeZero(8192);
                buffers.add(buf);
                writes.add(client.writeAndFlush(buf));
                total += 8192;
            }
            for (int i = 0; i < 8; i++) {
                ByteBuf buf = Unpooled.directBuffer(8192).writeZero(8192);
                buffers.add(buf);
                writes.add(client.write(buf));
            }
            client.close();
        }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(client.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        int failed = 0;
        for (ChannelFuture f : writes) {
            assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            if (!f.isSuccess()) {
                assertThat(f.cause()).isInstanceOf(ClosedChannelException.class);
                failed++;
            }
        }
        assertThat(failed).isGreaterThanOrEqualTo(8);
        assertThat(writes.get(writes.size() - 1).isSuccess()).isFalse();
        // What was sent but never read belongs to the receiver (a socket buffer, or a local peer's queue) and
        // goes when it closes.
        assertThat(serverChild.get().close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        // A completion-based transport (io_uring) lends a send's buffer to the kernel until the operation completes;
        // the close cancels it, and the loop releases the buffer when it reaps that completion on a later turn, an
        // event this thread cannot wait on: polled, bounded, a task through the loop each time (readiness
        // transports released everything at the close).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (buffers.stream().anyMatch(b -> b.refCnt() != 0) && System.nanoTime() - deadline < 0) {
            client.eventLoop().submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        for (ByteBuf buf : buffers) {
            assertThat(buf.refCnt()).isZero();
        }
    }

    @Test
    void shuttingTheServerGroupDownClosesItsConnections() throws Exception {
        EventLoopGroup serverGroup = newGroup();
        try {
            CountDownLatch childActive = new CountDownLatch(1);
            ServerBootstrap sb = serverChannel(new ServerBootstrap().group(serverGroup))
                    .childHandler(new ChannelHandler() {
                        @Override
                        public void channelActive(ChannelHandlerContext ctx) {
                            childActive.countDown();
                        }
                    });
            ChannelFuture bound = sb.bind(bindAddress());
            assertThat(bound.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(bound.cause()).isNull();
            Channel server = bound.channel();
            CountDownLatch clientInactive = new CountDownLatch(1);
            Channel client = connect(client(new ChannelHandler() {
                @Override
                public void channelInactive(ChannelHandlerContext ctx) {
                    clientInactive.countDown();
                }
            }), server.localAddress());
            assertThat(childActive.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();

            serverGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

            // Closed by its loop while the loop shut down (NIO, epoll), or once the loop had terminated (local,
            // whose channels have no I/O handle): either way after the group's future may have completed.
            assertThat(server.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(server.isOpen()).isFalse();
            assertThat(clientInactive.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(client.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        } finally {
            serverGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        }
    }

    @Test
    void halfClosureKeepsTheOtherDirectionOpenBothWays() throws Exception {
        assumeHalfClosure();
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
        assumeHalfClosure();
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
    void connectionRefusedFailsTheFutureWithConnectExceptionNamingTheAddress() throws Exception {
        SocketAddress nobody = unboundAddress();
        ChannelFuture f = client(NOOP).connect(nobody);
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isInstanceOf(ConnectException.class).hasMessageContaining(String.valueOf(nobody));
        assertThat(f.channel().closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void writingToAServerChannelFailsAndReleasesTheMessage() throws Exception {
        Channel server = bind(server(NOOP));
        ByteBuf msg = Unpooled.directBuffer().writeByte(1);
        ChannelFuture f = server.writeAndFlush(msg);
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("a server channel cannot write");
        assertThat(msg.refCnt()).isZero();
        assertThat(server.isActive()).as("still accepting").isTrue();
    }

    @Test
    void acceptedChannelThatNoHandlerTakesIsClosed() throws Exception {
        // The server's own handler takes ServerBootstrap's acceptor out of the way, so the accepted channel reaches
        // the end of the server channel's pipeline unclaimed: it must be closed, not left open and unread.
        CompletableFuture<Channel> unclaimed = new CompletableFuture<>();
        Channel server = bind(server(NOOP).handler(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ctx.pipeline().remove(ctx.pipeline().last());
                unclaimed.complete((Channel) msg);
                ctx.fireChannelRead(msg);
            }
        }));
        // The client learns either way: its connect fails (local: the child closed before the connect completed)
        // or its connection is closed by the server.
        Channel client = track(client(NOOP).connect(server.localAddress()).channel());
        Channel child = unclaimed.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(child.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("the unclaimed child closed")
                .isTrue();
        assertThat(client.closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("its client learns").isTrue();
    }

    private void assumeHalfClosure() {
        assumeTrue(supportsHalfClosure(), () -> getClass().getSimpleName() + ": connections are not DuplexChannels");
    }
}
