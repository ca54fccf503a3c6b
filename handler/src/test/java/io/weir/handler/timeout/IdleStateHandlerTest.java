package io.weir.handler.timeout;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class IdleStateHandlerTest {

    /** Collects idle events that reach the end of the pipeline. */
    static final class EventCollector implements ChannelHandler {
        final List<Object> events = new ArrayList<>();

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            events.add(evt);
        }
    }

    /** Holds back flushes so written messages stay pending in the outbound buffer. */
    static final class FlushBlocker implements ChannelHandler {
        boolean blocking = true;

        @Override
        public void flush(ChannelHandlerContext ctx) {
            if (!blocking) {
                ctx.flush();
            }
        }
    }

    private static void advance(EmbeddedChannel ch, long millis) {
        ch.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        ch.runPendingTasks();
    }

    @Test
    void readerIdleFiresFirstAtTheIdleTimeThenEveryPeriod() {
        EventCollector events = new EventCollector();
        EmbeddedChannel ch = new EmbeddedChannel(
                new IdleStateHandler(1000, 0, 0, TimeUnit.MILLISECONDS), events);
        advance(ch, 999);
        assertThat(events.events).isEmpty();
        advance(ch, 1);
        assertThat(events.events).containsExactly(IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT);
        advance(ch, 1000);
        assertThat(events.events).containsExactly(IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT,
                IdleStateEvent.READER_IDLE_STATE_EVENT);
        ch.finishAndReleaseAll();
    }

    @Test
    void aReadPostponesReaderIdleAndMakesTheNextEventFirstAgain() {
        EventCollector events = new EventCollector();
        EmbeddedChannel ch = new EmbeddedChannel(
                new IdleStateHandler(1000, 0, 0, TimeUnit.MILLISECONDS), events);
        advance(ch, 1000);
        assertThat(events.events).containsExactly(IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT);
        advance(ch, 500);
        ch.writeInbound("x");
        assertThat(ch.<String>readInbound()).isEqualTo("x");
        // The pending check at 2000 sees a read at 1500 and waits until 2500.
        advance(ch, 500);
        assertThat(events.events).hasSize(1);
        advance(ch, 500);
        assertThat(events.events).containsExactly(IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT,
                IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT);
        ch.finishAndReleaseAll();
    }

    @Test
    void writerIdleIsResetByCompletedWritesAndAllIdleByEither() {
        EventCollector events = new EventCollector();
        EmbeddedChannel ch = new EmbeddedChannel(
                new IdleStateHandler(0, 1000, 1500, TimeUnit.MILLISECONDS), events);
        advance(ch, 800);
        ch.writeOutbound("out");
        ch.releaseOutbound();
        advance(ch, 999);
        assertThat(events.events).isEmpty();
        advance(ch, 1);
        assertThat(events.events).containsExactly(IdleStateEvent.FIRST_WRITER_IDLE_STATE_EVENT);
        advance(ch, 500);
        assertThat(events.events).containsExactly(IdleStateEvent.FIRST_WRITER_IDLE_STATE_EVENT,
                IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT);
        ch.finishAndReleaseAll();
    }

    @Test
    void observeOutputTreatsSlowlyDrainingWritesAsActivity() {
        EventCollector observed = new EventCollector();
        EventCollector blind = new EventCollector();
        FlushBlocker blockerA = new FlushBlocker();
        FlushBlocker blockerB = new FlushBlocker();
        EmbeddedChannel observing = new EmbeddedChannel(blockerA,
                new IdleStateHandler(true, 0, 1000, 0, TimeUnit.MILLISECONDS), observed);
        EmbeddedChannel notObserving = new EmbeddedChannel(blockerB,
                new IdleStateHandler(false, 0, 1000, 0, TimeUnit.MILLISECONDS), blind);

        for (EmbeddedChannel ch : new EmbeddedChannel[] {observing, notObserving}) {
            // Writes never complete (flushes are held back) but the queue keeps changing.
            for (int i = 0; i < 4; i++) {
                ch.writeOneOutbound("chunk" + i);
                ch.flushOutbound();
                advance(ch, 1000);
            }
        }
        assertThat(observed.events).isEmpty();
        assertThat(blind.events).startsWith(IdleStateEvent.FIRST_WRITER_IDLE_STATE_EVENT).hasSize(4);

        // Once the queue stops moving the observing handler reports idleness too.
        advance(observing, 1000);
        assertThat(observed.events).containsExactly(IdleStateEvent.WRITER_IDLE_STATE_EVENT);

        blockerA.blocking = false;
        blockerB.blocking = false;
        observing.finishAndReleaseAll();
        notObserving.finishAndReleaseAll();
    }

    @Test
    void timersStopWhenTheHandlerIsRemovedOrTheChannelCloses() {
        EventCollector events = new EventCollector();
        IdleStateHandler handler = new IdleStateHandler(1000, 1000, 1000, TimeUnit.MILLISECONDS);
        EmbeddedChannel ch = new EmbeddedChannel(handler, events);
        ch.pipeline().remove(handler);
        advance(ch, 5000);
        assertThat(events.events).isEmpty();
        assertThat(ch.hasPendingTasks()).isFalse();

        EmbeddedChannel closing = new EmbeddedChannel(new IdleStateHandler(1000, 0, 0, TimeUnit.MILLISECONDS));
        closing.close();
        assertThat(closing.hasPendingTasks()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void removedAndAddedAgainTheHandlerTimesAfresh() {
        EventCollector events = new EventCollector();
        IdleStateHandler handler = new IdleStateHandler(1000, 0, 0, TimeUnit.MILLISECONDS);
        EmbeddedChannel ch = new EmbeddedChannel(handler, events);
        advance(ch, 1000);
        ch.pipeline().remove(handler);
        ch.pipeline().addFirst("idle", handler);
        advance(ch, 999);
        assertThat(events.events).containsExactly(IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT);
        advance(ch, 1);
        assertThat(events.events).containsExactly(IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT,
                IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT);
        ch.finishAndReleaseAll();
    }

    @Test
    void addedToAnActiveChannelStartsTimingAtOnce() {
        EventCollector events = new EventCollector();
        EmbeddedChannel ch = new EmbeddedChannel(events);
        advance(ch, 10_000);
        ch.pipeline().addFirst("idle", new IdleStateHandler(0, 0, 2, TimeUnit.SECONDS));
        advance(ch, 2000);
        assertThat(events.events).containsExactly(IdleStateEvent.FIRST_ALL_IDLE_STATE_EVENT);
        ch.finishAndReleaseAll();
    }

    @Test
    void idleTimesAreReportedAndNonPositiveTimesDisable() {
        IdleStateHandler handler = new IdleStateHandler(true, 0, -5, 3, TimeUnit.SECONDS);
        assertThat(handler.getReaderIdleTimeInMillis()).isZero();
        assertThat(handler.getWriterIdleTimeInMillis()).isZero();
        assertThat(handler.getAllIdleTimeInMillis()).isEqualTo(3000);
        assertThat(handler.isObserveOutput()).isTrue();
        assertThat(IdleStateEvent.of(IdleState.WRITER_IDLE, false)).isSameAs(IdleStateEvent.WRITER_IDLE_STATE_EVENT);
    }

}
