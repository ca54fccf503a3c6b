package io.weir.channel.pool;

import static io.weir.channel.pool.PoolTestBed.assertClosed;
import static io.weir.channel.pool.PoolTestBed.failureOf;
import static io.weir.channel.pool.PoolTestBed.get;
import static io.weir.channel.pool.RecordingPoolHandler.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.bootstrap.Bootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.GlobalEventExecutor;
import io.weir.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link SimpleChannelPool} over NIO on loopback, against an echo server. */
class SimpleChannelPoolTest {
    private PoolTestBed bed;
    private RecordingPoolHandler handler;

    @BeforeEach
    void start() throws Exception {
        bed = new PoolTestBed(2);
        handler = bed.handler;
    }

    @AfterEach
    void stop() throws Exception {
        bed.close();
    }

    private Bootstrap bootstrap() {
        return bed.bootstrap();
    }

    private SimpleChannelPool pool(ChannelHealthChecker checker, boolean healthCheckOnRelease, boolean lifo) {
        return bed.track(new SimpleChannelPool(bootstrap(), handler, checker, healthCheckOnRelease, lifo));
    }

    private SimpleChannelPool pool() {
        return pool(ChannelHealthChecker.ACTIVE, false, true);
    }

    @Test
    void releasedChannelsComeBackLastReleasedFirst() throws Exception {
        SimpleChannelPool pool = pool();
        Channel a = get(pool.acquire());
        Channel b = get(pool.acquire());
        assertThat(a).isNotSameAs(b);
        assertThat(roundTrip(a, "over a")).isEqualTo("over a");

        get(pool.release(a));
        get(pool.release(b));

        assertThat(get(pool.acquire())).isSameAs(b);
        Channel again = get(pool.acquire());
        assertThat(again).isSameAs(a);
        assertThat(roundTrip(again, "a again")).as("the reused connection still works").isEqualTo("a again");
        assertThat(handler.created).containsExactly(a, b);
        assertThat(handler.out).hasValue(2);
    }

    @Test
    void firstInFirstOutSpreadsUseOverIdleChannels() throws Exception {
        SimpleChannelPool pool = pool(ChannelHealthChecker.ACTIVE, false, false);
        Channel a = get(pool.acquire());
        Channel b = get(pool.acquire());
        get(pool.release(a));
        get(pool.release(b));

        assertThat(get(pool.acquire())).as("idle longest").isSameAs(a);
        assertThat(get(pool.acquire())).isSameAs(b);
        assertThat(handler.created).hasSize(2);
    }

    @Test
    void idleChannelClosedMeanwhileIsSkippedForANewOne() throws Exception {
        SimpleChannelPool pool = pool();
        Channel first = get(pool.acquire());
        get(pool.release(first));
        first.close().sync();

        Channel second = get(pool.acquire());

        assertThat(second).isNotSameAs(first);
        assertThat(second.isActive()).isTrue();
        assertThat(handler.created).containsExactly(first, second);
        assertThat(roundTrip(second, "fresh")).isEqualTo("fresh");
    }

    @Test
    void idleChannelFailingTheHealthCheckIsClosedAndSkipped() throws Exception {
        Set<Channel> sick = ConcurrentHashMap.newKeySet();
        ChannelHealthChecker checker = ch -> ch.eventLoop().newSucceededFuture(!sick.contains(ch));
        SimpleChannelPool pool = pool(checker, false, true);
        Channel a = get(pool.acquire());
        Channel b = get(pool.acquire());
        get(pool.release(a));
        get(pool.release(b));
        sick.add(b);

        assertThat(get(pool.acquire())).as("b, released last, is unhealthy; a is next").isSameAs(a);
        assertClosed(b);
        Channel c = get(pool.acquire());
        assertThat(c).as("no idle channel left: a new one").isNotIn(a, b);
        assertThat(handler.created).containsExactly(a, b, c);
    }

    @Test
    void healthCheckThatAnswersLaterFromAnotherThreadIsWaitedFor() throws Exception {
        Set<Channel> sick = ConcurrentHashMap.newKeySet();
        ChannelHealthChecker later = ch -> {
            Promise<Boolean> answer = GlobalEventExecutor.INSTANCE.newPromise();
            GlobalEventExecutor.INSTANCE.execute(() -> answer.setSuccess(!sick.contains(ch)));
            return answer;
        };
        SimpleChannelPool pool = pool(later, true, true);
        Channel a = get(pool.acquire());
        Channel b = get(pool.acquire());
        get(pool.release(a));
        get(pool.release(b));
        sick.add(b);

        assertThat(get(pool.acquire())).isSameAs(a);
        assertClosed(b);
        sick.add(a);
        get(pool.release(a));
        assertClosed(a);
        assertThat(get(pool.acquire())).isNotIn(a, b);
    }

    @Test
    void releasingAChannelThePoolDidNotLendIsRefusedAndClosesIt() throws Exception {
        SimpleChannelPool pool = pool();
        ChannelFuture connected = bootstrap().handler(new ChannelHandler() { }).connect();
        Channel stranger = connected.sync().channel();

        Throwable refused = failureOf(pool.release(stranger));

        assertThat(refused).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not acquired from");
        assertClosed(stranger);
        assertThat(handler.releases).hasValue(0);
    }

    @Test
    void releasingToAnotherPoolIsRefusedAndTheOwnerStillTakesItBack() throws Exception {
        SimpleChannelPool owner = pool();
        SimpleChannelPool other = pool();
        Channel channel = get(owner.acquire());

        assertThat(failureOf(other.release(channel))).isInstanceOf(IllegalArgumentException.class);
        assertClosed(channel);
        // The owner still counts it as lent out and takes it back; the next acquire skips the dead channel.
        get(owner.release(channel));
        assertThat(get(owner.acquire())).isNotSameAs(channel);
    }

    @Test
    void secondReleaseIsRefusedAndLeavesTheIdleChannelAlone() throws Exception {
        SimpleChannelPool pool = pool();
        Channel channel = get(pool.acquire());
        get(pool.release(channel));

        Throwable refused = failureOf(pool.release(channel));

        assertThat(refused).isInstanceOf(IllegalStateException.class).hasMessageContaining("already");
        assertThat(channel.isActive()).isTrue();
        assertThat(handler.releases).hasValue(1);
        assertThat(get(pool.acquire())).as("still idle in the pool, once").isSameAs(channel);
        assertThat(get(pool.acquire())).isNotSameAs(channel);
    }

    @Test
    void healthCheckOnReleaseClosesAnUnhealthyChannelInsteadOfKeepingIt() throws Exception {
        SimpleChannelPool pool = pool(ChannelHealthChecker.ACTIVE, true, true);
        Channel healthy = get(pool.acquire());
        Channel broken = get(pool.acquire());
        broken.close().sync();

        get(pool.release(healthy));
        get(pool.release(broken));

        assertThat(handler.releases).as("both were released").hasValue(2);
        assertThat(get(pool.acquire())).as("the broken one was not kept").isSameAs(healthy);
        assertThat(get(pool.acquire())).isNotIn(healthy, broken);
        assertThat(handler.created).hasSize(3);
    }

    @Test
    void withoutHealthCheckOnReleaseABrokenChannelIsKeptUntilTheNextAcquireChecksIt() throws Exception {
        SimpleChannelPool pool = pool();
        Channel broken = get(pool.acquire());
        broken.close().sync();
        get(pool.release(broken));

        assertThat(get(pool.acquire())).isNotSameAs(broken);
    }

    @Test
    void throwingChannelAcquiredFailsTheAcquireAndClosesTheChannel() throws Exception {
        IllegalStateException refusal = new IllegalStateException("not this one");
        List<Channel> created = new CopyOnWriteArrayList<>();
        ChannelPoolHandler refusing = new ChannelPoolHandler() {
            @Override
            public void channelCreated(Channel channel) {
                created.add(channel);
            }

            @Override
            public void channelAcquired(Channel channel) {
                throw refusal;
            }
        };
        SimpleChannelPool pool = bed.track(new SimpleChannelPool(bootstrap(), refusing));

        assertThat(failureOf(pool.acquire())).isSameAs(refusal);
        assertThat(created).hasSize(1);
        assertClosed(created.get(0));
    }

    @Test
    void closeClosesIdleChannelsThenRefusesAcquiresAndClosesWhatIsReleased() throws Exception {
        SimpleChannelPool pool = pool();
        Channel idle = get(pool.acquire());
        Channel out = get(pool.acquire());
        get(pool.release(idle));

        pool.close();

        assertThat(idle.isOpen()).as("close() waited for the idle channel").isFalse();
        assertThat(out.isActive()).as("lent out: the caller's until released").isTrue();
        assertThat(failureOf(pool.acquire())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        get(pool.release(out));
        assertClosed(out);
        assertThat(handler.out).hasValue(0);
    }

    @Test
    void acquireWithoutARemoteAddressFailsWithTheBootstrapsReason() throws Exception {
        Bootstrap noAddress = new Bootstrap().group(bed.clientLoops).channel(NioSocketChannel.class);
        SimpleChannelPool pool = bed.track(new SimpleChannelPool(noAddress, handler));

        assertThat(failureOf(pool.acquire())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("remoteAddress");
    }

    @Test
    void bootstrapWithoutAGroupIsRefusedAtConstruction() {
        Bootstrap noGroup = new Bootstrap().channel(NioSocketChannel.class).remoteAddress(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 9));

        assertThatThrownBy(() -> new SimpleChannelPool(noGroup, handler)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("group");
    }
}
