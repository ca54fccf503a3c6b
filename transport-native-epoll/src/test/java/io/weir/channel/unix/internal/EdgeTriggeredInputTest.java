package io.weir.channel.unix.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lost-edge rules of {@link EdgeTriggeredInput}, driven on an {@link EmbeddedChannel}'s loop with hooks that
 * record the interest instead of a kernel (the transports' socket tests cover it with real readiness).
 */
class EdgeTriggeredInputTest {
    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final RecordingHooks hooks = new RecordingHooks();
    private final EdgeTriggeredInput input = new EdgeTriggeredInput(channel, hooks);

    @AfterEach
    void tearDown() {
        channel.finishAndReleaseAll();
    }

    /** Hooks whose read loop ends as the test says: drained, or stopped with input left behind. */
    private final class RecordingHooks implements EdgeTriggeredInput.Hooks {
        final List<String> calls = new ArrayList<>();
        final List<Boolean> drainedPerLoop = new ArrayList<>();
        boolean watched;
        boolean queuedWork;
        int loops;

        @Override
        public boolean isReadWatched() {
            return watched;
        }

        @Override
        public void watchRead() {
            watched = true;
            calls.add("watch");
        }

        @Override
        public void unwatchRead() {
            watched = false;
            calls.add("unwatch");
        }

        @Override
        public void unwatchInput() {
            watched = false;
            calls.add("inputDone");
        }

        @Override
        public boolean hasQueuedInputWork() {
            return queuedWork;
        }

        @Override
        public void readLoop() {
            boolean drained = loops < drainedPerLoop.size() ? drainedPerLoop.get(loops) : true;
            loops++;
            input.readServed();
            input.readLoopEnded(drained);
            input.readLoopDone();
        }
    }

    @Test
    void readinessNobodyWantsDropsTheInterestUntilAReadAsksAgain() {
        channel.config().setAutoRead(false);
        hooks.watched = true;
        input.readReady();
        assertThat(hooks.loops).isZero();
        assertThat(hooks.calls).containsExactly("unwatch");
        // Watching again is what makes the kernel report the waiting input: no edge is lost.
        input.beginRead(false);
        assertThat(hooks.calls).containsExactly("unwatch", "watch");
        assertThat(input.isReadPending()).isTrue();
    }

    @Test
    void aLoopThatLeftInputBehindRunsAgainAsATaskUntilDrained() {
        hooks.watched = true;
        hooks.drainedPerLoop.add(false);
        hooks.drainedPerLoop.add(false);
        hooks.drainedPerLoop.add(true);
        input.readReady();
        assertThat(hooks.loops).isEqualTo(1);
        channel.runPendingTasks();
        assertThat(hooks.loops).isEqualTo(3);
        channel.runPendingTasks();
        assertThat(hooks.loops).isEqualTo(3);
    }

    @Test
    void aWatchedSocketWithInputLeftBehindIsReadWithoutANewEdge() {
        hooks.watched = true;
        input.readLoopEnded(false);
        // Watched already, so the kernel will not report the waiting input again: a task must read it.
        input.watchInput();
        assertThat(hooks.calls).isEmpty();
        channel.runPendingTasks();
        assertThat(hooks.loops).isEqualTo(1);
    }

    @Test
    void aSuspendedReadDoesNotWatchUntilTheOwnerSaysSo() {
        input.beginRead(true);
        assertThat(hooks.calls).isEmpty();
        input.watchInput();
        assertThat(hooks.calls).containsExactly("watch");
    }

    @Test
    void queuedInputWorkKeepsTheInterestWithAutoReadOff() {
        channel.config().setAutoRead(false);
        hooks.watched = true;
        hooks.queuedWork = true;
        input.clearReadPending();
        assertThat(hooks.watched).isTrue();
        input.readReady();
        assertThat(hooks.loops).isEqualTo(1);
        hooks.queuedWork = false;
        input.clearReadPending();
        assertThat(hooks.watched).isFalse();
    }

    @Test
    void theScheduledLoopRunsOnceHoweverOftenItIsAsked() {
        hooks.watched = true;
        input.scheduleReadReady();
        input.scheduleReadReady();
        channel.runPendingTasks();
        assertThat(hooks.loops).isEqualTo(1);
    }

    @Test
    void theEndOfInputDropsEveryInterestAndThePendingRead() {
        input.beginRead(false);
        input.peerFin();
        assertThat(input.peerFinReceived()).isTrue();
        input.inputDone();
        assertThat(input.isReadPending()).isFalse();
        assertThat(hooks.calls).containsExactly("watch", "inputDone");
    }

    @Test
    void aLoopScheduledForAClosedChannelDoesNotRun() {
        hooks.watched = true;
        // EmbeddedChannel runs its queued tasks as it closes, so the loop is scheduled after the close.
        channel.close();
        input.scheduleReadReady();
        channel.runPendingTasks();
        assertThat(hooks.loops).isZero();
    }
}
