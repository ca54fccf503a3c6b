package io.weir.channel.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.channel.DefaultChannelId;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.BlockingOperationException;
import io.weir.util.concurrent.GlobalEventExecutor;
import io.weir.util.concurrent.ImmediateEventExecutor;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Groups of real NIO channels on loopback, driven from several event loops. */
class ChannelGroupNioTest {
    private static final long TIMEOUT_SECONDS = 30;
    private static final int CLIENTS = 4;

    private final List<EventLoopGroup> loopGroups = new ArrayList<>();
    /** Every client channel the tests open, closed after each test. */
    private final ChannelGroup clients = new DefaultChannelGroup("clients", GlobalEventExecutor.INSTANCE);

    @AfterEach
    void stop() throws Exception {
        clients.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        for (EventLoopGroup g : loopGroups) {
            g.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    private EventLoopGroup loops(int threads) {
        EventLoopGroup g = new MultiThreadIoEventLoopGroup(threads, NioIoHandler.newFactory());
        loopGroups.add(g);
        return g;
    }

    /** Handlers for {@link #CLIENTS} clients that only connect. */
    private static List<ChannelHandler> quietClients() {
        List<ChannelHandler> handlers = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            handlers.add(new Passing());
        }
        return handlers;
    }

    private static InetSocketAddress loopback() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    /**
     * Binds a server whose accepted channels join {@code group}, connects {@link #CLIENTS} clients with
     * {@code clientHandler} each, and returns the server once every accepted channel is a member.
     */
    private Channel serverWithClients(EventLoopGroup parent, EventLoopGroup child, ChannelGroup group,
                                      ChannelHandler serverHandler, ChannelHandler childHandler,
                                      List<? extends ChannelHandler> clientHandlers) throws Exception {
        CountDownLatch joined = new CountDownLatch(clientHandlers.size());
        ChannelFuture bound = new ServerBootstrap().group(parent, child)
                .channel(NioServerSocketChannel.class)
                .handler(serverHandler)
                .childHandler(new JoinOnActive(group, joined, childHandler))
                .bind(loopback());
        assertThat(bound.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(bound.cause()).isNull();
        Channel server = bound.channel();
        for (ChannelHandler h : clientHandlers) {
            ChannelFuture connected = new Bootstrap().group(child).channel(NioSocketChannel.class).handler(h)
                    .connect(server.localAddress());
            assertThat(connected.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(connected.cause()).isNull();
            clients.add(connected.channel());
        }
        assertThat(joined.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        return server;
    }

    @Test
    void writeAndFlushReachesEveryClientAndReleasesTheBuffer() throws Exception {
        byte[] payload = "one buffer, every client".getBytes(StandardCharsets.US_ASCII);
        ChannelGroup group = new DefaultChannelGroup("accepted", GlobalEventExecutor.INSTANCE);
        List<Receiver> receivers = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            receivers.add(new Receiver(payload.length));
        }
        Channel server = serverWithClients(loops(1), loops(2), group, new Passing(), new Passing(), receivers);
        group.add(server);
        assertThat(group).hasSize(CLIENTS + 1);

        ByteBuf msg = ByteBufAllocator.DEFAULT.directBuffer(payload.length).writeBytes(payload);
        ChannelGroupFuture written = group.writeAndFlush(msg);

        assertThat(written.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(written.cause()).isNull();
        assertThat((Iterable<ChannelFuture>) written).hasSize(CLIENTS);
        assertThat(written.find(server)).as("server channels are not written to").isNull();
        for (Receiver r : receivers) {
            assertThat(r.received.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(payload);
        }
        assertThat(msg.refCnt()).isZero();

        ChannelGroupFuture closed = group.close();
        assertThat(closed.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(closed.isSuccess()).isTrue();
        assertThat(server.isOpen()).isFalse();
    }

    /**
     * With every channel on one loop, each close runs in the order the group issued it: the server, though
     * added last, is closed before any of its connections.
     */
    @Test
    void closeClosesServerChannelsBeforeTheirConnections() throws Exception {
        EventLoopGroup oneLoop = loops(1);
        List<String> closeOrder = new CopyOnWriteArrayList<>();
        ChannelGroup group = new DefaultChannelGroup("accepted", ImmediateEventExecutor.INSTANCE);
        Channel server = serverWithClients(oneLoop, oneLoop, group, new RecordingClose("server", closeOrder),
                new RecordingClose("child", closeOrder), quietClients());
        group.add(server);
        ChannelGroupFuture allClosed = group.newCloseFuture();

        ChannelGroupFuture closed = group.close();

        assertThat(closed.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(closed.isSuccess()).isTrue();
        assertThat(closeOrder).hasSize(CLIENTS + 1).first().isEqualTo("server");
        assertThat(allClosed.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(group).as("every member left as it closed").isEmpty();
    }

    @Test
    void membersClosingOnTheirOwnLoopsLeaveTheGroup() throws Exception {
        ChannelGroup group = new DefaultChannelGroup("accepted", GlobalEventExecutor.INSTANCE);
        Channel server = serverWithClients(loops(1), loops(3), group, new Passing(), new Passing(), quietClients());
        try {
            ChannelGroupFuture allClosed = group.newCloseFuture();
            // The peers close; each accepted channel sees the end of stream on its own loop and closes.
            ChannelGroupFuture clientsClosed = clients.close();

            assertThat(clientsClosed.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(allClosed.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(group).isEmpty();
            assertThat(clients).isEmpty();
        } finally {
            server.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /**
     * Several loops add and remove the same channels as fast as they can; afterwards each channel has the
     * group's close listener exactly while it is a member, whatever order the races took.
     */
    @Test
    void concurrentAddAndRemoveFromSeveralLoopsLeaveNoStrayListener() throws Exception {
        int loopCount = 4;
        int rounds = 5_000;
        EventLoopGroup workers = loops(loopCount);
        ChannelGroup group = new DefaultChannelGroup("churn", GlobalEventExecutor.INSTANCE);
        List<EmbeddedChannel> delegates = new ArrayList<>();
        List<CloseListenerProbe> probes = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            EmbeddedChannel ch = new EmbeddedChannel(DefaultChannelId.newInstance());
            delegates.add(ch);
            probes.add(new CloseListenerProbe(ch));
        }
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<io.weir.util.concurrent.Future<?>> done = new ArrayList<>();
            for (int w = 0; w < loopCount; w++) {
                EventLoop loop = workers.next();
                done.add(loop.submit(() -> {
                    start.await();
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < rounds; i++) {
                        Channel ch = probes.get(random.nextInt(probes.size())).channel();
                        if (random.nextBoolean()) {
                            group.add(ch);
                        } else {
                            group.remove(ch);
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (io.weir.util.concurrent.Future<?> f : done) {
                f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }

            int members = 0;
            for (CloseListenerProbe probe : probes) {
                boolean member = group.contains(probe.channel());
                members += member ? 1 : 0;
                assertThat(probe.listeners()).as("listeners of %s, member: %s", probe.channel(), member)
                        .isEqualTo(member ? 1 : 0);
            }
            assertThat(group).hasSize(members);
        } finally {
            for (EmbeddedChannel ch : delegates) {
                ch.finishAndReleaseAll();
            }
        }
        assertThat(group).as("closed members left").isEmpty();
    }

    /** A write that is not flushed cannot finish while its loop waits for it: the wait is refused. */
    @Test
    void waitingForTheGroupOnAMembersLoopIsRefused() throws Exception {
        ChannelGroup group = new DefaultChannelGroup("accepted", GlobalEventExecutor.INSTANCE);
        Channel server = serverWithClients(loops(1), loops(1), group, new Passing(), new Passing(),
                List.of(new Passing()));
        try {
            Channel member = group.iterator().next();
            ByteBuf msg = ByteBufAllocator.DEFAULT.buffer().writeByte(1);
            CompletableFuture<Throwable> refusal = new CompletableFuture<>();
            member.eventLoop().execute(() -> {
                ChannelGroupFuture pending = group.write(msg);
                try {
                    pending.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    refusal.complete(null);
                } catch (Throwable t) {
                    refusal.complete(t);
                }
                group.flush();
            });
            assertThat(refusal.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isInstanceOf(BlockingOperationException.class)
                    .hasMessageContaining(member.toString());
        } finally {
            group.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            server.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Adds each accepted channel to a group once active, then adds the per-child handler. */
    @ChannelHandler.Sharable
    private static final class JoinOnActive implements ChannelHandler {
        private final ChannelGroup group;
        private final CountDownLatch joined;
        private final ChannelHandler next;

        JoinOnActive(ChannelGroup group, CountDownLatch joined, ChannelHandler next) {
            this.group = group;
            this.joined = joined;
            this.next = next;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            group.add(ctx.channel());
            joined.countDown();
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            ctx.pipeline().addLast(next);
        }
    }

    /** Passes everything on; may sit in any number of pipelines. */
    @ChannelHandler.Sharable
    private static final class Passing implements ChannelHandler {
    }

    /** Records {@code name} when a close passes through it. */
    @ChannelHandler.Sharable
    private static final class RecordingClose implements ChannelHandler {
        private final String name;
        private final List<String> order;

        RecordingClose(String name, List<String> order) {
            this.name = name;
            this.order = order;
        }

        @Override
        public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
            order.add(name);
            ctx.close(promise);
        }
    }

    /** Collects the bytes a client reads and completes once {@code expected} have arrived. */
    private static final class Receiver implements ChannelHandler {
        final CompletableFuture<byte[]> received = new CompletableFuture<>();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final int expected;

        Receiver(int expected) {
            this.expected = expected;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                byte[] chunk = new byte[buf.readableBytes()];
                buf.readBytes(chunk);
                bytes.writeBytes(chunk);
            } finally {
                buf.release();
            }
            if (bytes.size() >= expected) {
                received.complete(bytes.toByteArray());
            }
        }
    }
}
