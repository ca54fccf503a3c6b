package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.util.ManualTicker;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.Ticker;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AbstractChannelTest {
    private static final long TIMEOUT_SECONDS = 10;

    private final ManualTicker ticker = Ticker.manual();
    private final TestEventLoop loop = new TestEventLoop(ticker);

    @AfterEach
    void tearDown() throws Exception {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private void drainLoop() throws Exception {
        loop.submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private static ByteBuf buf(int size) {
        return Unpooled.buffer(size).writeZero(size);
    }

    private TestChannel registered() throws Exception {
        TestChannel ch = new TestChannel(loop);
        ch.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return ch;
    }

    @Test
    void idMadeOnFirstUseIsMadeOnceAndNamesTheChannelEverywhere() {
        AtomicInteger made = new AtomicInteger();
        ChannelId given = DefaultChannelId.newInstance();
        TestChannel ch = new TestChannel(loop, true) {
            @Override
            protected ChannelId newId() {
                made.incrementAndGet();
                return given;
            }
        };
        assertThat(made).hasValue(0);
        assertThat(ch.hashCode()).isEqualTo(given.hashCode());
        assertThat(ch.id()).isSameAs(given);
        assertThat(ch.toString()).contains(given.asShortText());
        assertThat(made).hasValue(1);
    }

    @Test
    void threadsRacingForAnIdMadeOnFirstUseAllGetTheSameOne() throws Exception {
        int threads = 4;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 50; round++) {
                // Every call of newId() makes a different id: only the first one set may be handed out.
                TestChannel ch = new TestChannel(loop, true);
                CountDownLatch start = new CountDownLatch(1);
                List<Future<ChannelId>> ids = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    ids.add(pool.submit(() -> {
                        start.await();
                        return ch.id();
                    }));
                }
                start.countDown();
                ChannelId first = ids.get(0).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                for (Future<ChannelId> id : ids) {
                    assertThat(id.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isSameAs(first);
                }
                assertThat(ch.id()).isSameAs(first);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void closeFutureFirstAskedForAfterTheCloseIsAlreadyComplete() throws Exception {
        TestChannel ch = registered();
        ch.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(ch.closeFuture().isSuccess()).isTrue();
        assertThat(ch.closeFuture()).isSameAs(ch.closeFuture());
    }

    @Test
    void closeFutureFirstAskedForWhileTheChannelClosesOnItsLoopCompletes() throws Exception {
        ExecutorService asker = Executors.newSingleThreadExecutor();
        try {
            for (int round = 0; round < 200; round++) {
                TestChannel ch = registered();
                CountDownLatch start = new CountDownLatch(1);
                Future<ChannelFuture> asked = asker.submit(() -> {
                    start.await();
                    return ch.closeFuture();
                });
                loop.execute(() -> {
                    start.countDown();
                    ch.close();
                });
                // Whichever of the two came first, the future handed out must complete.
                asked.get(TIMEOUT_SECONDS, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                assertThat(ch.closeFuture().isSuccess()).isTrue();
            }
        } finally {
            asker.shutdownNow();
        }
    }

    @Test
    void registerAddsTheHandleToTheLoopAndDeregisterCancelsIt() throws Exception {
        TestChannel ch = registered();
        assertThat(ch.isRegistered()).isTrue();
        assertThat(loop.registrations.get()).isEqualTo(1);
        assertThat(loop.submit(() -> ch.ioRegistration() != null).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        ch.deregister().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(ch.isRegistered()).isFalse();
        assertThat(loop.cancellations.get()).isEqualTo(1);
        ch.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(loop.registrations.get()).isEqualTo(2);
        assertThat(ch.eventLoop()).isSameAs(loop);
        CountDownLatch unregistered = new CountDownLatch(1);
        ch.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelUnregistered(ChannelHandlerContext ctx) {
                unregistered.countDown();
            }
        });
        ch.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        // Deregistration follows the close as a separate task; wait for its event, not for the close future.
        assertThat(unregistered.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(loop.cancellations.get()).isEqualTo(2);
    }

    @Test
    void refusedRegistrationFailsTheFutureAndClosesTheChannel() throws Exception {
        loop.refuseRegistrations = true;
        TestChannel ch = new TestChannel(loop);
        ByteBuf queued = buf(4);
        ChannelFuture write = ch.write(queued);
        ChannelFuture register = ch.register();
        assertThat(register.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(register.cause()).hasMessage("registration refused");
        assertThat(ch.closeFuture().isDone()).isTrue();
        assertThat(ch.isOpen()).isFalse();
        assertThat(write.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(write.isSuccess()).isFalse();
        assertThat(queued.refCnt()).isZero();
    }

    @Test
    void bindMakesTheChannelActiveAndFiresChannelActiveOnce() throws Exception {
        TestChannel ch = registered();
        CountDownLatch active = new CountDownLatch(1);
        ch.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                active.countDown();
            }
        });
        ch.bind(new InetSocketAddress(0)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(active.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(ch.isActive()).isTrue();
        assertThat(ch.localAddress()).isEqualTo(new InetSocketAddress(0));
        ch.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void bindingFromTheRegistrationListenerFiresChannelActiveExactlyOnce() throws Exception {
        TestChannel ch = new TestChannel(loop);
        java.util.concurrent.atomic.AtomicInteger actives = new java.util.concurrent.atomic.AtomicInteger();
        ch.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                actives.incrementAndGet();
            }
        });
        CountDownLatch bound = new CountDownLatch(1);
        ch.register().addListener(f -> ch.bind(new InetSocketAddress(0)).addListener(b -> bound.countDown()));
        assertThat(bound.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        drainLoop();
        assertThat(ch.isActive()).isTrue();
        assertThat(actives.get()).isEqualTo(1);
        ch.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void handlerAddedFromAnotherThreadRunsOnTheLoop() throws Exception {
        TestChannel ch = registered();
        CountDownLatch added = new CountDownLatch(1);
        boolean[] onLoop = new boolean[1];
        ch.pipeline().addLast(new ChannelHandler() {
            @Override
            public void handlerAdded(ChannelHandlerContext ctx) {
                onLoop[0] = ctx.executor().inEventLoop();
                added.countDown();
            }
        });
        assertThat(added.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(onLoop[0]).isTrue();
        ch.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void tailReleasesMessagesNobodyConsumed() throws Exception {
        TestChannel ch = registered();
        ByteBuf msg = buf(8);
        ch.pipeline().fireChannelRead(msg);
        drainLoop();
        assertThat(msg.refCnt()).isZero();
        ch.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void writeFromAnotherThreadCountsTowardsWritabilityUntilItIsQueued() throws Exception {
        TestChannel ch = registered();
        ch.bind(new InetSocketAddress(0)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        ch.config().setWriteBufferWaterMark(new WriteBufferWaterMark(10, 100));
        CountDownLatch release = new CountDownLatch(1);
        loop.execute(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        ChannelFuture write = ch.writeAndFlush(buf(200));
        // The loop is busy: the write is still travelling, yet the channel already reports it.
        assertThat(ch.isWritable()).isFalse();
        release.countDown();
        write.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        drainLoop();
        assertThat(ch.isWritable()).isTrue();
        assertThat(ch.written).hasSize(1);
        ReferenceCountUtil.release(ch.written.poll());
        ch.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void closeFailsWritesTheSocketDidNotTakeAndReleasesThem() throws Exception {
        TestChannel ch = registered();
        ch.bind(new InetSocketAddress(0)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        ch.acceptWrites = false;
        ByteBuf flushed = buf(4);
        ByteBuf unflushed = buf(4);
        ChannelFuture f1 = ch.writeAndFlush(flushed);
        ChannelFuture f2 = ch.write(unflushed);
        drainLoop();
        assertThat(f1.isDone()).isFalse();
        ch.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(f1.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f2.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f1.cause()).isInstanceOf(ClosedChannelException.class);
        assertThat(f2.cause()).isInstanceOf(ClosedChannelException.class);
        assertThat(flushed.refCnt()).isZero();
        assertThat(unflushed.refCnt()).isZero();
        assertThat(ch.closeFuture().isSuccess()).isTrue();
        assertThat(ch.isWritable()).isFalse();
    }

    @Test
    void writesWaitForWritabilityAndResumeWhenTheTransportSaysSo() throws Exception {
        TestChannel ch = registered();
        ch.bind(new InetSocketAddress(0)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        ch.acceptWrites = false;
        ChannelFuture f = ch.writeAndFlush(buf(4));
        drainLoop();
        assertThat(f.isDone()).isFalse();
        ch.acceptWrites = true;
        loop.execute(ch::writable);
        f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        ReferenceCountUtil.release(ch.written.poll());
        ch.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void connectThatCompletesLaterFiresActiveThen() throws Exception {
        TestChannel ch = registered();
        ch.connectCompletesLater = true;
        List<String> events = new CopyOnWriteArrayList<>();
        ch.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                events.add("active");
            }
        });
        ChannelFuture connect = ch.connect(new InetSocketAddress("127.0.0.1", 9));
        drainLoop();
        assertThat(connect.isDone()).isFalse();
        loop.execute(ch::connectReady);
        connect.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        drainLoop();
        assertThat(events).containsExactly("active");
        ch.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void connectThatTakesTooLongFailsAndClosesTheChannel() throws Exception {
        TestChannel ch = registered();
        ch.connectCompletesLater = true;
        ch.config().setConnectTimeoutMillis(500);
        ChannelFuture connect = ch.connect(new InetSocketAddress("127.0.0.1", 9));
        drainLoop();
        ticker.advance(500, TimeUnit.MILLISECONDS);
        assertThat(connect.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(connect.cause()).isInstanceOf(ConnectTimeoutException.class).hasMessageContaining("500 ms");
        ch.closeFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        // A late readiness report must not resurrect the channel.
        loop.submit(ch::connectReady).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(ch.isActive()).isFalse();
    }

    @Test
    void shutdownOfAChannelWithoutHalfCloseFails() throws Exception {
        TestChannel ch = registered();
        ChannelFuture f = ch.shutdown(ChannelShutdownDirection.OUTBOUND);
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isInstanceOf(UnsupportedOperationException.class);
        ch.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void operationsOnAClosedChannelFailWithClosedChannelException() throws Exception {
        TestChannel ch = registered();
        ch.close().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        ChannelFuture bind = ch.bind(new InetSocketAddress(0));
        assertThat(bind.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(bind.cause()).isInstanceOf(ClosedChannelException.class).hasMessageContaining("bind");
        try {
            ch.register().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(ClosedChannelException.class);
        }
    }

    @Test
    void anAllocationFailureAtThePipelineEndClosesOnlyItsChannel() throws Exception {
        TestChannel greedy = registered();
        TestChannel other = registered();
        greedy.pipeline().addLast(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ReferenceCountUtil.release(msg);
                throw new OutOfMemoryError("Cannot reserve 4194304 bytes of direct buffer memory");
            }
        });
        loop.submit(() -> greedy.pipeline().fireChannelRead(buf(8))).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        drainLoop();
        assertThat(greedy.isOpen()).as("the channel whose allocation failed").isFalse();
        assertThat(other.isOpen()).as("another channel of the same loop").isTrue();
        assertThat(loop.submit(() -> true).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("the loop runs on").isTrue();
    }
}
