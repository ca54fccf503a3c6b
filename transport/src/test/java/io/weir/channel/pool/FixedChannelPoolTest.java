package io.weir.channel.pool;

import static io.weir.channel.pool.PoolTestBed.assertClosed;
import static io.weir.channel.pool.PoolTestBed.failureOf;
import static io.weir.channel.pool.PoolTestBed.get;
import static io.weir.channel.pool.RecordingPoolHandler.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.pool.FixedChannelPool.AcquireTimeoutAction;
import io.weir.util.concurrent.Future;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link FixedChannelPool} over NIO on loopback, against an echo server. Most tests give the pool a one-loop
 * group, so that a task run on that loop ({@link #poolCaughtUp()}) shows the pool has handled every call made
 * before it.
 */
class FixedChannelPoolTest {
    private static final long SHORT_ACQUIRE_TIMEOUT_MILLIS = 200;

    private PoolTestBed bed;
    private RecordingPoolHandler handler;

    @BeforeEach
    void start() throws Exception {
        bed = new PoolTestBed(1);
        handler = bed.handler;
    }

    @AfterEach
    void stop() throws Exception {
        bed.close();
    }

    private FixedChannelPool pool(int maxConnections, int maxPendingAcquires) {
        return bed.track(new FixedChannelPool(bed.bootstrap(), handler, maxConnections, maxPendingAcquires));
    }

    private FixedChannelPool poolTimingOut(AcquireTimeoutAction action, int maxConnections) {
        return bed.track(new FixedChannelPool(bed.bootstrap(), handler, ChannelHealthChecker.ACTIVE, action,
                SHORT_ACQUIRE_TIMEOUT_MILLIS, maxConnections, 10, false, true));
    }

    /** Returns once the pool's executor (the client group's only loop) has run every task queued so far. */
    private void poolCaughtUp() throws Exception {
        get(bed.clientLoops.submit(() -> null));
    }

    @Test
    void acquiresBeyondTheLimitWaitAndTakeReleasedChannelsOldestWaiterFirst() throws Exception {
        FixedChannelPool pool = pool(2, 10);
        Channel a = get(pool.acquire());
        Channel b = get(pool.acquire());

        Future<Channel> third = pool.acquire();
        Future<Channel> fourth = pool.acquire();
        poolCaughtUp();
        assertThat(pool.pendingAcquireCount()).isEqualTo(2);
        assertThat(pool.acquiredChannelCount()).isEqualTo(2);
        assertThat(third.isDone()).isFalse();

        get(pool.release(b));
        assertThat(get(third)).as("the oldest waiter gets the channel just released").isSameAs(b);
        poolCaughtUp();
        assertThat(fourth.isDone()).isFalse();
        assertThat(pool.pendingAcquireCount()).isEqualTo(1);

        get(pool.release(a));
        assertThat(get(fourth)).isSameAs(a);
        assertThat(roundTrip(a, "handed over")).isEqualTo("handed over");

        assertThat(handler.created).containsExactly(a, b);
        assertThat(handler.mostOut).hasValue(2);
        get(pool.release(a));
        get(pool.release(b));
        assertThat(pool.acquiredChannelCount()).isZero();
        assertThat(pool.pendingAcquireCount()).isZero();
    }

    @Test
    void acquireBeyondThePendingLimitFailsAtOnceWithTheLimits() throws Exception {
        FixedChannelPool pool = pool(1, 1);
        Channel a = get(pool.acquire());
        Future<Channel> waiting = pool.acquire();

        Throwable refused = failureOf(pool.acquire());

        assertThat(refused).isInstanceOfSatisfying(TooManyPendingAcquiresException.class, e -> {
            assertThat(e.maxPendingAcquires()).isEqualTo(1);
            assertThat(e.maxConnections()).isEqualTo(1);
        });
        assertThat(waiting.isDone()).as("the waiter already queued is not disturbed").isFalse();
        assertThat(pool.pendingAcquireCount()).isEqualTo(1);
        get(pool.release(a));
        assertThat(get(waiting)).isSameAs(a);
    }

    @Test
    void acquireTimeoutFailFailsTheWaiterAndLeavesTheCountsRight() throws Exception {
        FixedChannelPool pool = poolTimingOut(AcquireTimeoutAction.FAIL, 1);
        Channel a = get(pool.acquire());

        Throwable timedOut = failureOf(pool.acquire());

        assertThat(timedOut).isInstanceOfSatisfying(AcquireTimeoutException.class, e -> {
            assertThat(e.timeoutMillis()).isEqualTo(SHORT_ACQUIRE_TIMEOUT_MILLIS);
            assertThat(e.maxConnections()).isEqualTo(1);
        });
        assertThat(pool.pendingAcquireCount()).as("the waiter left the queue").isZero();
        assertThat(pool.acquiredChannelCount()).isEqualTo(1);
        get(pool.release(a));
        assertThat(pool.acquiredChannelCount()).isZero();
        assertThat(get(pool.acquire())).as("the timed-out waiter took nothing").isSameAs(a);
        assertThat(handler.created).hasSize(1);
    }

    @Test
    void acquireTimeoutNewConnectsBeyondTheLimit() throws Exception {
        FixedChannelPool pool = poolTimingOut(AcquireTimeoutAction.NEW, 1);
        Channel a = get(pool.acquire());

        Channel extra = get(pool.acquire());

        assertThat(extra).isNotSameAs(a);
        assertThat(roundTrip(extra, "extra")).isEqualTo("extra");
        assertThat(pool.acquiredChannelCount()).isEqualTo(2);
        assertThat(pool.pendingAcquireCount()).isZero();
        get(pool.release(extra));
        get(pool.release(a));
        assertThat(pool.acquiredChannelCount()).isZero();
        assertThat(handler.out).hasValue(0);
    }

    @Test
    void failedConnectFreesItsSlotForTheNextAcquire() throws Exception {
        FixedChannelPool pool = pool(1, 10);
        InetSocketAddress address = bed.stopServer();

        Future<Channel> first = pool.acquire();
        Future<Channel> second = pool.acquire();

        assertThat(failureOf(first)).isInstanceOf(ConnectException.class);
        assertThat(failureOf(second)).as("the waiter got the freed slot and tried, long before its timeout")
                .isInstanceOf(ConnectException.class);
        assertThat(pool.acquiredChannelCount()).isZero();
        assertThat(pool.pendingAcquireCount()).isZero();

        bed.restartServer(address);
        Channel channel = get(pool.acquire());
        assertThat(roundTrip(channel, "back")).isEqualTo("back");
        get(pool.release(channel));
        assertThat(pool.acquiredChannelCount()).isZero();
    }

    @Test
    void cancelledWaiterLeavesTheQueue() throws Exception {
        FixedChannelPool pool = pool(1, 1);
        Channel a = get(pool.acquire());
        Future<Channel> cancelled = pool.acquire();
        poolCaughtUp();

        assertThat(cancelled.cancel(false)).isTrue();
        // One task notifies the promise's listener, which queues a second that takes the waiter out.
        poolCaughtUp();
        poolCaughtUp();

        assertThat(pool.pendingAcquireCount()).isZero();
        Future<Channel> next = pool.acquire();
        get(pool.release(a));
        assertThat(get(next)).as("the queue's one place was free again").isSameAs(a);
    }

    @Test
    void refusedReleasesFreeNoSlot() throws Exception {
        FixedChannelPool pool = pool(1, 10);
        Channel a = get(pool.acquire());
        Channel stranger = bed.bootstrap().handler(new ChannelHandler() { }).connect().sync().channel();

        assertThat(failureOf(pool.release(stranger))).isInstanceOf(IllegalArgumentException.class);
        assertClosed(stranger);
        assertThat(pool.acquiredChannelCount()).isEqualTo(1);

        get(pool.release(a));
        assertThat(failureOf(pool.release(a))).isInstanceOf(IllegalStateException.class);
        assertThat(pool.acquiredChannelCount()).isZero();
        assertThat(a.isActive()).isTrue();
    }

    @Test
    void closeFailsWaitersThenClosesChannelsAsTheyAreReleased() throws Exception {
        FixedChannelPool pool = pool(1, 10);
        Channel a = get(pool.acquire());
        Future<Channel> waiting = pool.acquire();
        poolCaughtUp();

        pool.close();

        assertThat(failureOf(waiting)).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThat(pool.pendingAcquireCount()).isZero();
        assertThat(failureOf(pool.acquire())).isInstanceOf(IllegalStateException.class);
        assertThat(a.isActive()).as("lent out: the caller's until released").isTrue();
        get(pool.release(a));
        assertClosed(a);
        assertThat(pool.acquiredChannelCount()).isZero();
    }

    @Test
    void closeClosesIdleChannels() throws Exception {
        FixedChannelPool pool = pool(2, 10);
        Channel a = get(pool.acquire());
        Channel b = get(pool.acquire());
        get(pool.release(a));
        get(pool.release(b));

        pool.close();

        assertThat(a.isOpen()).isFalse();
        assertThat(b.isOpen()).isFalse();
    }

    /**
     * Threads acquire, use and release as fast as they can through a pool whose channels live on several loops;
     * the handler's own count of channels out never passes the limit and everything returns to zero.
     */
    @Test
    void concurrentAcquireAndReleaseKeepTheCountsConsistent() throws Exception {
        int maxConnections = 3;
        int threads = 8;
        int rounds = 40;
        FixedChannelPool pool = bed.track(new FixedChannelPool(bed.bootstrap(bed.loops(3)), handler, maxConnections,
                threads));
        ExecutorService callers = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(callers.submit(() -> {
                    start.await();
                    for (int i = 0; i < rounds; i++) {
                        Channel channel = get(pool.acquire());
                        String text = thread + ":" + i;
                        assertThat(roundTrip(channel, text)).isEqualTo(text);
                        get(pool.release(channel));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (java.util.concurrent.Future<?> f : done) {
                f.get(PoolTestBed.TIMEOUT_SECONDS * 2, TimeUnit.SECONDS);
            }
        } finally {
            callers.shutdownNow();
        }

        assertThat(handler.mostOut.get()).isBetween(1, maxConnections);
        assertThat(handler.out).hasValue(0);
        assertThat(handler.acquires).hasValue(threads * rounds);
        assertThat(handler.releases).hasValue(threads * rounds);
        assertThat(handler.created).as("a channel is only created when none is idle").hasSizeLessThanOrEqualTo(
                maxConnections);
        assertThat(pool.acquiredChannelCount()).isZero();
        assertThat(pool.pendingAcquireCount()).isZero();
    }

    @Test
    void limitsBelowOneAreRefusedWithTheValue() {
        Bootstrap b = bed.bootstrap();
        assertThatThrownBy(() -> new FixedChannelPool(b, handler, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxConnections: 0");
        assertThatThrownBy(() -> new FixedChannelPool(b, handler, 1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxPendingAcquires: 0");
        assertThatThrownBy(() -> new FixedChannelPool(b, handler, ChannelHealthChecker.ACTIVE,
                AcquireTimeoutAction.FAIL, 0, 1, 1, false, true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("acquireTimeoutMillis: 0");
    }
}
