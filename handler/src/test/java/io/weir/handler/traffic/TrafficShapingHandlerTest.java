package io.weir.handler.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.channel.embedded.EmbeddedEventLoop;
import io.weir.util.ManualTicker;
import io.weir.util.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TrafficShapingHandlerTest {

    private static ByteBuf bytes(int n) {
        return Unpooled.buffer(n).writeZero(n);
    }

    private static void advance(EmbeddedChannel ch, long millis) {
        ch.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
    }

    private static int releaseOutbound(EmbeddedChannel ch) {
        int n = 0;
        Object msg;
        while ((msg = ch.readOutbound()) != null) {
            ((ByteBuf) msg).release();
            n++;
        }
        return n;
    }

    /** Counts read requests that get past the shaping handler. */
    static final class ReadCounter implements ChannelHandler {
        int reads;

        @Override
        public void read(ChannelHandlerContext ctx) {
            reads++;
            ctx.read();
        }
    }

    /** Records user events. */
    static final class EventRecorder implements ChannelHandler {
        final List<Object> events = new ArrayList<>();

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            events.add(evt);
        }
    }

    @Test
    void writesAreDelayedToTheConfiguredRateAndKeepTheirOrder() {
        ChannelTrafficShapingHandler shaper = new ChannelTrafficShapingHandler(1000, 0, 1000);
        EmbeddedChannel ch = new EmbeddedChannel(shaper);
        List<ChannelFuture> futures = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            futures.add(ch.writeAndFlush(bytes(500)));
        }
        ch.runPendingTasks();
        // 500 bytes take 500 ms at 1000 B/s: the writes go at 0, 500, 1000 and 1500 ms.
        assertThat(releaseOutbound(ch)).isEqualTo(1);
        assertThat(shaper.queueSize()).isEqualTo(1500);
        advance(ch, 499);
        assertThat(releaseOutbound(ch)).isZero();
        assertThat(futures.get(1).isDone()).isFalse();
        advance(ch, 1);
        assertThat(releaseOutbound(ch)).isEqualTo(1);
        assertThat(futures.get(1).isSuccess()).isTrue();
        advance(ch, 500);
        assertThat(releaseOutbound(ch)).isEqualTo(1);
        advance(ch, 500);
        assertThat(releaseOutbound(ch)).isEqualTo(1);
        assertThat(futures).allSatisfy(f -> assertThat(f.isSuccess()).isTrue());
        assertThat(shaper.queueSize()).isZero();
        ch.finishAndReleaseAll();
    }

    @Test
    void unlimitedWritesPassAtOnce() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelTrafficShapingHandler(0, 0, 1000));
        for (int i = 0; i < 10; i++) {
            ch.writeAndFlush(bytes(100_000));
        }
        assertThat(releaseOutbound(ch)).isEqualTo(10);
        ch.finishAndReleaseAll();
    }

    @Test
    void readsPauseAutoReadForTheTimeTheBytesShouldHaveTaken() {
        ReadCounter reads = new ReadCounter();
        EmbeddedChannel ch = new EmbeddedChannel(reads, new ChannelTrafficShapingHandler(0, 1000, 1000));
        int readsBefore = reads.reads;
        ch.writeInbound(bytes(2000));
        ((ByteBuf) ch.readInbound()).release();
        assertThat(ch.config().isAutoRead()).isFalse();
        // Asking for a read while paused gets nowhere.
        ch.read();
        advance(ch, 1999);
        assertThat(ch.config().isAutoRead()).isFalse();
        assertThat(reads.reads).isEqualTo(readsBefore);
        advance(ch, 1);
        assertThat(ch.config().isAutoRead()).isTrue();
        assertThat(reads.reads).isEqualTo(readsBefore + 1);
        ch.finishAndReleaseAll();
    }

    @Test
    void pausesAreCappedAtMaxTime() {
        ChannelTrafficShapingHandler shaper = new ChannelTrafficShapingHandler(0, 10, 1000, 300);
        EmbeddedChannel ch = new EmbeddedChannel(shaper);
        ch.writeInbound(bytes(10_000));
        ((ByteBuf) ch.readInbound()).release();
        assertThat(ch.config().isAutoRead()).isFalse();
        advance(ch, 300);
        assertThat(ch.config().isAutoRead()).isTrue();
        ch.finishAndReleaseAll();
    }

    @Test
    void countersReportThroughputPerCheckInterval() {
        ChannelTrafficShapingHandler shaper = new ChannelTrafficShapingHandler(0, 0, 1000);
        List<Long> accounted = new ArrayList<>();
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelTrafficShapingHandler(0, 0, 1000) {
            @Override
            protected void doAccounting(TrafficCounter counter) {
                accounted.add(counter.lastWrittenBytes());
            }
        }, shaper);
        ch.writeInbound(bytes(3000));
        ((ByteBuf) ch.readInbound()).release();
        ch.writeAndFlush(bytes(1500));
        ch.writeAndFlush(bytes(500));
        releaseOutbound(ch);

        TrafficCounter counter = shaper.trafficCounter();
        assertThat(counter.currentReadBytes()).isEqualTo(3000);
        assertThat(counter.currentWrittenBytes()).isEqualTo(2000);
        advance(ch, 1000);
        assertThat(counter.lastReadBytes()).isEqualTo(3000);
        assertThat(counter.lastReadThroughput()).isEqualTo(3000);
        assertThat(counter.lastWrittenBytes()).isEqualTo(2000);
        assertThat(counter.lastWriteThroughput()).isEqualTo(2000);
        assertThat(counter.realWriteThroughput()).isEqualTo(2000);
        assertThat(counter.currentWrittenBytes()).isZero();
        assertThat(counter.cumulativeWrittenBytes()).isEqualTo(2000);
        assertThat(accounted).containsExactly(2000L);

        advance(ch, 1000);
        assertThat(counter.lastWriteThroughput()).isZero();
        assertThat(counter.cumulativeReadBytes()).isEqualTo(3000);
        assertThat(accounted).containsExactly(2000L, 0L);
        ch.finishAndReleaseAll();
    }

    @Test
    void longQueuesReportWritesSuspendedUntilDrained() {
        EventRecorder events = new EventRecorder();
        ChannelTrafficShapingHandler shaper = new ChannelTrafficShapingHandler(1000, 0, 1000);
        shaper.setMaxWriteDelay(1000);
        EmbeddedChannel ch = new EmbeddedChannel(shaper, events);
        for (int i = 0; i < 3; i++) {
            ch.writeAndFlush(bytes(1000));
        }
        ch.runPendingTasks();
        assertThat(shaper.isWriteSuspended(ch)).isTrue();
        assertThat(events.events).containsExactly(WriteSuspendedEvent.SUSPENDED);
        advance(ch, 2000);
        assertThat(shaper.isWriteSuspended(ch)).isFalse();
        assertThat(events.events).containsExactly(WriteSuspendedEvent.SUSPENDED, WriteSuspendedEvent.RESUMED);
        assertThat(releaseOutbound(ch)).isEqualTo(3);
        ch.finishAndReleaseAll();
    }

    @Test
    void queuedWritesAreReleasedAndFailedWhenTheChannelCloses() {
        EmbeddedChannel ch = new EmbeddedChannel(new ChannelTrafficShapingHandler(100, 0, 1000));
        ch.writeAndFlush(bytes(100));
        ByteBuf delayed = bytes(100);
        ChannelFuture f = ch.writeAndFlush(delayed);
        ch.runPendingTasks();
        assertThat(f.isDone()).isFalse();
        ch.close();
        assertThat(f.isSuccess()).isFalse();
        assertThat(delayed.refCnt()).isZero();
        ch.finishAndReleaseAll();
    }

    @Test
    void removingTheHandlerSendsQueuedWritesAndResumesReads() {
        ChannelTrafficShapingHandler shaper = new ChannelTrafficShapingHandler(100, 100, 1000);
        EmbeddedChannel ch = new EmbeddedChannel(shaper);
        ch.writeAndFlush(bytes(100));
        ch.writeAndFlush(bytes(100));
        ch.writeInbound(bytes(1000));
        ((ByteBuf) ch.readInbound()).release();
        assertThat(ch.config().isAutoRead()).isFalse();
        assertThat(releaseOutbound(ch)).isEqualTo(1);
        ch.pipeline().remove(shaper);
        assertThat(releaseOutbound(ch)).isEqualTo(1);
        assertThat(ch.config().isAutoRead()).isTrue();
        ch.finishAndReleaseAll();
    }

    @Test
    void globalHandlerSharesOneLimitAcrossChannels() {
        ManualTicker ticker = Ticker.manual();
        EmbeddedEventLoop monitorLoop = new EmbeddedEventLoop(ticker);
        GlobalTrafficShapingHandler global = new GlobalTrafficShapingHandler(monitorLoop, 1000, 0, 1000);
        EmbeddedChannel a = new EmbeddedChannel(global);
        EmbeddedChannel b = new EmbeddedChannel(global);
        a.writeAndFlush(bytes(500));
        b.writeAndFlush(bytes(500));
        a.writeAndFlush(bytes(500));
        a.runPendingTasks();
        b.runPendingTasks();
        // One shared budget of 1000 B/s: a's first write goes at once, b's at 500 ms, a's second at 1000 ms.
        assertThat(releaseOutbound(a)).isEqualTo(1);
        assertThat(releaseOutbound(b)).isZero();
        assertThat(global.queuesSize()).isEqualTo(1000);

        // The counter's clock first, so that the channels' timers see the same time.
        ticker.advance(500, TimeUnit.MILLISECONDS);
        for (EmbeddedChannel ch : new EmbeddedChannel[] {a, b}) {
            advance(ch, 500);
        }
        assertThat(releaseOutbound(a)).isZero();
        assertThat(releaseOutbound(b)).isEqualTo(1);
        ticker.advance(500, TimeUnit.MILLISECONDS);
        for (EmbeddedChannel ch : new EmbeddedChannel[] {a, b}) {
            advance(ch, 500);
        }
        monitorLoop.runPendingTasks();
        assertThat(releaseOutbound(a)).isEqualTo(1);
        assertThat(global.queuesSize()).isZero();
        assertThat(global.trafficCounter().lastWrittenBytes()).isEqualTo(1500);
        assertThat(global.trafficCounter().cumulativeWrittenBytes()).isEqualTo(1500);

        a.finishAndReleaseAll();
        b.finishAndReleaseAll();
        global.release();
        monitorLoop.shutdownGracefully();
    }

    @Test
    void negativeLimitsAreRefused() {
        assertThatThrownBy(() -> new ChannelTrafficShapingHandler(-1, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("writeLimit: -1");
        assertThatThrownBy(() -> new ChannelTrafficShapingHandler(0, 0, 1000, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxTimeMillis: 0");
    }
}
