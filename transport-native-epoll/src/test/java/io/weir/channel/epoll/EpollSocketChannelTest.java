package io.weir.channel.epoll;

import static io.weir.channel.epoll.EpollChannels.LOOPBACK;
import static io.weir.channel.epoll.EpollChannels.TIMEOUT_SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInputShutdownEvent;
import io.weir.channel.ChannelInputShutdownReadComplete;
import io.weir.channel.ChannelOption;
import io.weir.channel.ChannelShutdownEvent;
import io.weir.channel.EventLoop;
import io.weir.channel.FixedRecvByteBufAllocator;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.EpollChannels.Collector;
import io.weir.channel.epoll.EpollChannels.Echo;
import io.weir.channel.unix.NativeIoException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EpollSocketChannelTest extends AbstractEpollChannelTest {
    private static final int MIB = 1024 * 1024;

    private final Random random = new Random(42);
    private EventLoop serverLoop;
    private EventLoop clientLoop;

    EpollSocketChannelTest() {
        super(2);
    }

    @BeforeEach
    void pickLoops() {
        serverLoop = loop;
        clientLoop = group.next();
    }

    private EpollServerSocketChannel echoServer() throws Exception {
        return track(EpollChannels.server(serverLoop, group, s -> { }, this::track, Echo::new));
    }

    private EpollSocketChannel client(InetSocketAddress remote, ChannelHandler handler) throws Exception {
        return track(EpollChannels.client(clientLoop, remote, c -> { }, handler));
    }

    private byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static ByteBuf direct(byte[] bytes) {
        return ByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
    }

    @Test
    void echoesSmallMessages() throws Exception {
        EpollServerSocketChannel server = echoServer();
        String text = "hello, epoll";
        Collector collector = new Collector(text.length() * 3);
        EpollSocketChannel client = client(server.localAddress(), collector);

        assertThat(client.isActive()).isTrue();
        assertThat(client.remoteAddress().getPort()).isEqualTo(server.localAddress().getPort());
        for (int i = 0; i < 3; i++) {
            client.writeAndFlush(Unpooled.copiedBuffer(text, java.nio.charset.StandardCharsets.US_ASCII))
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }

        assertThat(new String(collector.await(), java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo(text + text + text);
    }

    @Test
    void echoesTenMebibytesOfRandomBytesUnchanged() throws Exception {
        EpollServerSocketChannel server = echoServer();
        byte[] data = randomBytes(10 * MIB);
        Collector collector = new Collector(data.length);
        EpollSocketChannel client = client(server.localAddress(), collector);

        ChannelFuture written = client.writeAndFlush(direct(data));

        assertThat(collector.await()).isEqualTo(data);
        written.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void servesOneHundredConcurrentConnections() throws Exception {
        EpollServerSocketChannel server = echoServer();
        int connections = 100;
        List<Collector> collectors = new ArrayList<>();
        List<byte[]> sent = new ArrayList<>();
        List<EpollSocketChannel> clients = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            byte[] data = randomBytes(1024 + i);
            Collector collector = new Collector(data.length);
            EpollSocketChannel client = track(new EpollSocketChannel(group.next()));
            client.pipeline().addLast(collector);
            client.register();
            client.connect(server.localAddress());
            client.writeAndFlush(Unpooled.wrappedBuffer(data));
            collectors.add(collector);
            sent.add(data);
            clients.add(client);
        }

        for (int i = 0; i < connections; i++) {
            assertThat(collectors.get(i).await()).as("connection %d", i).isEqualTo(sent.get(i));
            assertThat(clients.get(i).isActive()).isTrue();
        }
    }

    @Test
    void peerShutdownOutputHalfClosesWhenAllowedAndTheOtherDirectionStillWorks() throws Exception {
        CompletableFuture<Channel> childInputShutdown = new CompletableFuture<>();
        CompletableFuture<Void> childReadComplete = new CompletableFuture<>();
        EpollServerSocketChannel server = track(EpollChannels.server(serverLoop, group, s -> { }, child -> {
            track(child);
            child.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
        }, () -> new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ((ByteBuf) msg).release();
            }

            @Override
            public void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) {
                if (event == ChannelInputShutdownEvent.INSTANCE) {
                    childInputShutdown.complete(ctx.channel());
                } else if (event == ChannelInputShutdownReadComplete.INSTANCE) {
                    childReadComplete.complete(null);
                }
            }
        }));
        Collector collector = new Collector(3);
        EpollSocketChannel client = client(server.localAddress(), collector);
        client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));

        client.shutdownOutput().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        EpollSocketChannel child = (EpollSocketChannel) childInputShutdown.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        childReadComplete.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        assertThat(client.isOutputShutdown()).isTrue();
        assertThat(child.isInputShutdown()).isTrue();
        assertThat(child.isOpen()).isTrue();
        assertThat(child.isOutputShutdown()).isFalse();
        child.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {7, 8, 9})).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(collector.await()).containsExactly(7, 8, 9);

        // Now the server shuts its output too: the client, without half-closure, closes on the end of stream.
        child.shutdownOutput().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        client.closeFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(client.isOpen()).isFalse();
    }

    @Test
    void serverShutdownOutputHalfClosesTheClientWhichStillWrites() throws Exception {
        CompletableFuture<Channel> accepted = new CompletableFuture<>();
        Collector serverSide = new Collector(4);
        EpollServerSocketChannel server = track(EpollChannels.server(serverLoop, group, s -> { },
                child -> accepted.complete(track(child)), () -> serverSide));
        CompletableFuture<Void> clientInputShutdown = new CompletableFuture<>();
        EpollSocketChannel client = track(EpollChannels.client(clientLoop, server.localAddress(),
                c -> c.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true), new ChannelHandler() {
                    @Override
                    public void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) {
                        if (event == ChannelInputShutdownEvent.INSTANCE) {
                            clientInputShutdown.complete(null);
                        }
                    }
                }));
        EpollSocketChannel child = (EpollSocketChannel) accepted.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        child.shutdownOutput().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        clientInputShutdown.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        assertThat(client.isInputShutdown()).isTrue();
        assertThat(client.isActive()).isTrue();
        client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {4, 3, 2, 1})).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(serverSide.await()).containsExactly(4, 3, 2, 1);
    }

    /**
     * After both FINs the kernel reports ENOTCONN for {@code shutdown(SHUT_RD)}; the half-closing channel must still
     * see its input shut down, not close as if the shutdown had failed.
     */
    @Test
    void peerFinAfterOwnOutputShutdownHalfClosesInsteadOfClosing() throws Exception {
        EpollServerSocketChannel server = echoServer();
        CompletableFuture<Void> clientInputShutdown = new CompletableFuture<>();
        EpollSocketChannel client = track(EpollChannels.client(clientLoop, server.localAddress(),
                c -> c.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true), new ChannelHandler() {
                    @Override
                    public void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) {
                        if (event == ChannelInputShutdownEvent.INSTANCE) {
                            clientInputShutdown.complete(null);
                        }
                    }

                    @Override
                    public void channelInactive(ChannelHandlerContext ctx) {
                        clientInputShutdown.completeExceptionally(new AssertionError("closed instead"));
                    }
                }));

        // The echo child, without half-closure, closes on the client's FIN and so sends its own.
        client.shutdownOutput().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        clientInputShutdown.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        assertThat(client.isOpen()).isTrue();
        assertThat(client.isInputShutdown()).isTrue();
        assertThat(client.isOutputShutdown()).isTrue();
    }

    /** Records each read and read-complete; reads with auto-read off are driven by the test. */
    private static final class ManualReader extends Collector {
        final Semaphore readCompletes = new Semaphore(0);
        final boolean readFromReadComplete;

        ManualReader(int expected, boolean readFromReadComplete) {
            super(expected);
            this.readFromReadComplete = readFromReadComplete;
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            readCompletes.release();
            if (readFromReadComplete && !done.isDone()) {
                // Still watching EPOLLIN at this point: only the channel's own memory of the rest can resume.
                ctx.read();
            }
        }
    }

    private EpollServerSocketChannel manualReadServer(ManualReader reader) throws Exception {
        return track(EpollChannels.server(serverLoop, group, s -> { }, c -> {
            track(c);
            c.config().setOption(ChannelOption.AUTO_READ, false);
            c.config().setOption(ChannelOption.MAX_MESSAGES_PER_READ, 1);
            c.config().setOption(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(1024));
        }, () -> reader));
    }

    @Test
    void autoReadOffDeliversOneBufferPerReadCallUntilEverythingArrived() throws Exception {
        byte[] data = randomBytes(32 * 1024);
        ManualReader reader = new ManualReader(data.length, false);
        EpollServerSocketChannel server = manualReadServer(reader);
        EpollSocketChannel client = client(server.localAddress(), new ChannelHandler() { });

        // Everything is in the kernel before the first read() asks: no new edge will announce any of it.
        client.writeAndFlush(direct(data)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Channel child = reader.awaitActive();
        int reads = 0;
        while (!reader.done.isDone()) {
            child.read();
            assertThat(reader.readCompletes.tryAcquire(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .as("read() number %d delivered nothing", reads + 1).isTrue();
            reads++;
        }

        assertThat(reader.await()).isEqualTo(data);
        // MAX_MESSAGES_PER_READ=1: each read() delivered exactly one buffer of at most 1024 bytes.
        assertThat(reader.reads).isEqualTo(reads).isGreaterThanOrEqualTo(data.length / 1024);
    }

    @Test
    void readFromReadCompleteResumesWhenMaxMessagesPerReadLeftBytesInTheSocket() throws Exception {
        byte[] data = randomBytes(64 * 1024);
        ManualReader reader = new ManualReader(data.length, true);
        EpollServerSocketChannel server = manualReadServer(reader);
        EpollSocketChannel client = client(server.localAddress(), new ChannelHandler() { });

        client.writeAndFlush(direct(data)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        reader.awaitActive().read();

        assertThat(reader.await()).isEqualTo(data);
        assertThat(reader.reads).isGreaterThanOrEqualTo(data.length / 1024);
    }

    @Test
    void autoReadWithOneMessagePerReadLoopStillDrainsTheSocket() throws Exception {
        EpollServerSocketChannel server = track(EpollChannels.server(serverLoop, group, s -> { }, c -> {
            track(c);
            c.config().setOption(ChannelOption.MAX_MESSAGES_PER_READ, 1);
            c.config().setOption(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(512));
        }, Echo::new));
        byte[] data = randomBytes(MIB);
        Collector collector = new Collector(data.length);
        EpollSocketChannel client = client(server.localAddress(), collector);

        client.writeAndFlush(direct(data));

        assertThat(collector.await()).isEqualTo(data);
    }

    @Test
    void autoReadTurnedOnAgainDeliversWhatArrivedWhileItWasOff() throws Exception {
        byte[] data = randomBytes(16 * 1024);
        Collector collector = new Collector(data.length);
        EpollServerSocketChannel server = track(EpollChannels.server(serverLoop, group, s -> { }, c -> {
            track(c);
            c.config().setOption(ChannelOption.AUTO_READ, false);
        }, () -> collector));
        EpollSocketChannel client = client(server.localAddress(), new ChannelHandler() { });

        client.writeAndFlush(direct(data)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        collector.awaitActive().config().setAutoRead(true);

        assertThat(collector.await()).isEqualTo(data);
    }

    @Test
    void dataAndFinThatArrivedWhileNotReadingAreBothDeliveredOnceReadingResumes() throws Exception {
        byte[] data = randomBytes(8 * 1024);
        CompletableFuture<Void> inputShutdown = new CompletableFuture<>();
        Collector collector = new Collector(data.length) {
            @Override
            public void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) {
                if (event == ChannelInputShutdownEvent.INSTANCE) {
                    inputShutdown.complete(null);
                }
            }
        };
        EpollServerSocketChannel server = track(EpollChannels.server(serverLoop, group, s -> { }, c -> {
            track(c);
            c.config().setOption(ChannelOption.AUTO_READ, false);
            c.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
            c.config().setOption(ChannelOption.MAX_MESSAGES_PER_READ, 1);
            c.config().setOption(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(1500));
        }, () -> collector));
        EpollSocketChannel client = client(server.localAddress(), new ChannelHandler() { });

        // EPOLLRDHUP comes while nobody reads; no later edge will announce the end of the stream.
        client.writeAndFlush(direct(data)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        client.shutdownOutput().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Channel child = collector.awaitActive();
        child.config().setAutoRead(true);

        assertThat(collector.await()).isEqualTo(data);
        inputShutdown.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(((EpollSocketChannel) child).isInputShutdown()).isTrue();
        assertThat(child.isOpen()).isTrue();
    }

    @Test
    void gatheringWriteOfManySmallBuffersArrivesInOrder() throws Exception {
        EpollServerSocketChannel server = echoServer();
        int buffers = 3000;
        java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
        List<byte[]> pieces = new ArrayList<>();
        for (int i = 0; i < buffers; i++) {
            byte[] piece = randomBytes(1 + random.nextInt(31));
            pieces.add(piece);
            expected.write(piece, 0, piece.length);
        }
        Collector collector = new Collector(expected.size());
        EpollSocketChannel client = client(server.localAddress(), collector);
        List<ChannelFuture> writes = new ArrayList<>();

        clientLoop.submit(() -> {
            for (int i = 0; i < buffers; i++) {
                byte[] piece = pieces.get(i);
                // Direct and heap mixed: heap ones are copied into direct memory as they are written.
                writes.add(client.write(i % 3 == 0 ? Unpooled.wrappedBuffer(piece) : direct(piece)));
            }
            client.flush();
        }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        assertThat(collector.await()).isEqualTo(expected.toByteArray());
        for (ChannelFuture write : writes) {
            assertThat(write.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isNull();
        }
    }

    /** A server whose accepted channels do not read and have a tiny receive buffer, so the peer's writes back up. */
    private EpollServerSocketChannel stalledServer(Collector collector) throws Exception {
        return track(EpollChannels.server(serverLoop, group,
                s -> s.config().setOption(ChannelOption.SO_RCVBUF, 4096), c -> {
                    track(c);
                    c.config().setOption(ChannelOption.AUTO_READ, false);
                }, () -> collector));
    }

    @Test
    void writeLargerThanTheSocketBuffersCompletesOnceThePeerReads() throws Exception {
        byte[] data = randomBytes(8 * MIB);
        Collector collector = new Collector(data.length);
        EpollServerSocketChannel server = stalledServer(collector);
        EpollSocketChannel client = track(EpollChannels.client(clientLoop, server.localAddress(),
                c -> c.config().setOption(ChannelOption.SO_SNDBUF, 4096), new ChannelHandler() { }));

        ChannelFuture written = client.writeAndFlush(direct(data));
        // The kernel holds far less than 8 MiB for a peer that does not read: the rest waits in the channel.
        boolean writableWhileStalled = clientLoop.submit(client::isWritable).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(writableWhileStalled).isFalse();
        assertThat(written.isDone()).isFalse();

        collector.awaitActive().config().setAutoRead(true);

        assertThat(collector.await()).isEqualTo(data);
        written.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        // The promise completes before the loop subtracts the written bytes from the pending total, in the same
        // task: asked on the loop, after that task, the channel is writable again.
        boolean writableAfterwards = clientLoop.submit(client::isWritable).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(writableAfterwards).isTrue();
    }

    @Test
    void closeWithPendingWritesFailsTheirPromisesAndReleasesTheBuffers() throws Exception {
        EpollServerSocketChannel server = stalledServer(new Collector(Integer.MAX_VALUE));
        EpollSocketChannel client = track(EpollChannels.client(clientLoop, server.localAddress(),
                c -> c.config().setOption(ChannelOption.SO_SNDBUF, 4096), new ChannelHandler() { }));
        List<ByteBuf> buffers = new ArrayList<>();
        List<ChannelFuture> writes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            buffers.add(direct(randomBytes(4 * MIB)));
        }

        clientLoop.submit(() -> {
            for (ByteBuf buf : buffers) {
                writes.add(client.writeAndFlush(buf));
            }
            client.close();
        }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        client.closeFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        for (ChannelFuture write : writes.subList(1, writes.size())) {
            assertThatThrownBy(() -> write.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(ClosedChannelException.class);
        }
        assertThat(writes.get(0).await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(writes.get(0).isSuccess()).as("4 MiB cannot all fit a stalled peer's buffers").isFalse();
        for (ByteBuf buf : buffers) {
            assertThat(buf.refCnt()).isZero();
        }
    }

    @Test
    void connectionRefusedFailsTheConnectFutureWithConnectException() throws Exception {
        EpollServerSocketChannel server = echoServer();
        InetSocketAddress address = server.localAddress();
        server.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        EpollSocketChannel client = track(new EpollSocketChannel(clientLoop));
        client.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        ChannelFuture connect = client.connect(address);

        assertThatThrownBy(() -> connect.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(ConnectException.class)
                .hasMessageContaining(String.valueOf(address.getPort()));
        client.closeFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(client.isOpen()).isFalse();
    }

    @Test
    void writesFlushedWhileConnectingAreSentOnceConnected() throws Exception {
        EpollServerSocketChannel server = echoServer();
        Collector collector = new Collector(5);
        EpollSocketChannel client = track(new EpollSocketChannel(clientLoop));
        client.pipeline().addLast(collector);
        client.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        ChannelFuture written = clientLoop.submit(() -> {
            client.connect(server.localAddress());
            return client.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1, 2, 3, 4, 5}));
        }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        written.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(collector.await()).containsExactly(1, 2, 3, 4, 5);
    }

    @Test
    void dataArrivingWhileDeregisteredIsReadAfterRegisteringAgain() throws Exception {
        CompletableFuture<Channel> accepted = new CompletableFuture<>();
        EpollServerSocketChannel server = track(EpollChannels.server(serverLoop, group, s -> { },
                c -> accepted.complete(track(c)), () -> new ChannelHandler() { }));
        Collector collector = new Collector(4);
        EpollSocketChannel client = client(server.localAddress(), collector);
        Channel child = accepted.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        client.deregister().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        child.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {5, 6, 7, 8})).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(collector.done.isDone()).isFalse();
        client.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        assertThat(collector.await()).containsExactly(5, 6, 7, 8);
        assertThat(client.isActive()).isTrue();
    }

    @Test
    void acceptedConnectionForALoopOfAnotherTransportIsClosedAndReported() throws Exception {
        MultiThreadIoEventLoopGroup nio = new MultiThreadIoEventLoopGroup(1, io.weir.channel.nio.NioIoHandler.newFactory());
        try {
            CompletableFuture<Throwable> failure = new CompletableFuture<>();
            EpollServerSocketChannel server = track(new EpollServerSocketChannel(serverLoop, nio));
            server.pipeline().addLast(new ChannelHandler() {
                @Override
                public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                    failure.complete(cause);
                }
            });
            server.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            server.bind(LOOPBACK).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            CompletableFuture<Void> clientClosed = new CompletableFuture<>();
            EpollSocketChannel client = client(server.localAddress(), new ChannelHandler() { });
            client.closeFuture().addListener(f -> clientClosed.complete(null));

            assertThat(failure.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("incompatible event loop");
            // The refused connection's socket was closed: the client reads the end of its stream and closes.
            clientClosed.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(server.isActive()).isTrue();
        } finally {
            nio.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void reusePortLetsTwoServerChannelsOnTwoLoopsBindTheSamePort() throws Exception {
        LinkedBlockingQueue<Channel> acceptedByFirst = new LinkedBlockingQueue<>();
        LinkedBlockingQueue<Channel> acceptedBySecond = new LinkedBlockingQueue<>();
        EpollServerSocketChannel first = track(EpollChannels.server(serverLoop, group,
                s -> s.config().setOption(EpollChannelOption.SO_REUSEPORT, true),
                c -> acceptedByFirst.add(track(c)), Echo::new));
        int port = first.localAddress().getPort();
        EpollServerSocketChannel second = track(EpollChannels.server(clientLoop, group,
                s -> s.config().setOption(EpollChannelOption.SO_REUSEPORT, true),
                c -> acceptedBySecond.add(track(c)), Echo::new,
                new InetSocketAddress(LOOPBACK.getAddress(), port)));

        assertThat(second.localAddress().getPort()).isEqualTo(port);
        assertThat(first.eventLoop()).isNotSameAs(second.eventLoop());
        assertThat(first.config().getOption(EpollChannelOption.SO_REUSEPORT)).isTrue();
        int connections = 32;
        for (int i = 0; i < connections; i++) {
            Collector collector = new Collector(1);
            client(first.localAddress(), collector).writeAndFlush(Unpooled.wrappedBuffer(new byte[] {(byte) i}));
            assertThat(collector.await()).containsExactly((byte) i);
        }
        assertThat(acceptedByFirst.size() + acceptedBySecond.size()).isEqualTo(connections);
    }

    @Test
    void bindingATakenPortWithoutReusePortFailsNamingTheAddress() throws Exception {
        EpollServerSocketChannel first = echoServer();
        EpollServerSocketChannel second = track(new EpollServerSocketChannel(clientLoop, group));
        second.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

        ChannelFuture bind = second.bind(first.localAddress());

        assertThatThrownBy(() -> bind.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(NativeIoException.class)
                .hasMessageStartingWith("bind(" + LOOPBACK.getAddress().getHostAddress() + ':'
                        + first.localAddress().getPort() + ") failed: Address already in use (errno ");
    }

    @Test
    void channelOnAnotherTransportsLoopIsRefusedClearly() throws Exception {
        MultiThreadIoEventLoopGroup nio = new MultiThreadIoEventLoopGroup(1, io.weir.channel.nio.NioIoHandler.newFactory());
        try {
            assertThatThrownBy(() -> new EpollSocketChannel(nio.next()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("EpollIoHandler");
            assertThatThrownBy(() -> new EpollServerSocketChannel(nio.next(), group))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("incompatible event loop");
        } finally {
            nio.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void socketOptionsRoundTripThroughTheKernel() throws Exception {
        EpollSocketChannel channel = track(new EpollSocketChannel(clientLoop));
        var config = channel.config();

        assertThat(config.getOption(ChannelOption.TCP_NODELAY)).isTrue();
        assertThat(config.setOption(ChannelOption.SO_KEEPALIVE, true)).isTrue();
        assertThat(config.getOption(ChannelOption.SO_KEEPALIVE)).isTrue();
        config.setOption(ChannelOption.SO_LINGER, 3);
        assertThat(config.getOption(ChannelOption.SO_LINGER)).isEqualTo(3);
        config.setOption(EpollChannelOption.TCP_KEEPIDLE, 77);
        config.setOption(EpollChannelOption.TCP_KEEPINTVL, 11);
        config.setOption(EpollChannelOption.TCP_KEEPCNT, 5);
        config.setOption(EpollChannelOption.TCP_USER_TIMEOUT, 12_345);
        config.setOption(EpollChannelOption.TCP_NOTSENT_LOWAT, 16_384);
        config.setOption(EpollChannelOption.TCP_CORK, true);
        config.setOption(EpollChannelOption.SO_REUSEPORT, true);
        assertThat(config.getOption(EpollChannelOption.TCP_KEEPIDLE)).isEqualTo(77);
        assertThat(config.getOption(EpollChannelOption.TCP_KEEPINTVL)).isEqualTo(11);
        assertThat(config.getOption(EpollChannelOption.TCP_KEEPCNT)).isEqualTo(5);
        assertThat(config.getOption(EpollChannelOption.TCP_USER_TIMEOUT)).isEqualTo(12_345);
        assertThat(config.getOption(EpollChannelOption.TCP_NOTSENT_LOWAT)).isEqualTo(16_384);
        assertThat(config.getOption(EpollChannelOption.TCP_CORK)).isTrue();
        assertThat(config.getOption(EpollChannelOption.SO_REUSEPORT)).isTrue();
        assertThat(config.getOptions()).containsKeys(EpollChannelOption.TCP_QUICKACK, ChannelOption.IP_TOS);
        assertThatThrownBy(() -> config.setOption(EpollChannelOption.TCP_KEEPCNT, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TCP_KEEPCNT: 0");
    }
}
