package io.weir.channel.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.channel.IoRegistration;
import io.weir.channel.SingleThreadIoEventLoop;
import io.weir.util.concurrent.Future;
import java.nio.channels.SelectionKey;
import java.nio.channels.spi.SelectorProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every scenario runs twice: with the array-backed selected-key set and with the JDK's own. */
class NioIoHandlerTest {
    private static final long TIMEOUT_SECONDS = 10;

    private final AtomicReference<NioIoHandler> handler = new AtomicReference<>();
    private final List<PipeHandle> handles = new ArrayList<>();
    private SingleThreadIoEventLoop loop;

    private void start(boolean arrayKeys) {
        start(arrayKeys, NioIoHandler.DEFAULT_SELECTOR_AUTO_REBUILD_THRESHOLD);
    }

    private void start(boolean arrayKeys, int rebuildThreshold) {
        start(arrayKeys, rebuildThreshold, NioIoHandler.MAX_IDLE_POLL_NANOS);
    }

    private void start(boolean arrayKeys, int rebuildThreshold, long maxIdlePollNanos) {
        loop = new SingleThreadIoEventLoop(null, (Executor) null, l -> {
            NioIoHandler h = (NioIoHandler) NioIoHandler.newFactory(arrayKeys, rebuildThreshold, maxIdlePollNanos)
                    .newHandler(l);
            handler.set(h);
            return h;
        });
    }

    private PipeHandle pipe(boolean drain) throws Exception {
        PipeHandle handle = new PipeHandle(drain);
        handles.add(handle);
        return handle;
    }

    private <T> T onLoop(Callable<T> task) throws Exception {
        return loop.submit(task).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Returns once the loop has run at least one full select after this call. */
    private void afterNextSelect() throws Exception {
        // The inner task is queued from a task, so it runs an iteration later, after that iteration's select.
        loop.submit(() -> loop.submit(() -> { })).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private IoRegistration register(PipeHandle handle) throws Exception {
        return loop.register(handle).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (loop != null) {
            loop.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        for (PipeHandle handle : handles) {
            handle.closePipe();
        }
    }

    @ParameterizedTest(name = "array keys: {0}")
    @ValueSource(booleans = {true, false})
    void selectedKeySetIsTheOneAskedForWhereTheJdkAllowsIt(boolean arrayKeys) throws Exception {
        start(arrayKeys);
        // The build opens sun.nio.ch to the tests, so the array set is available on the JDKs it runs on (< 26).
        boolean expected = arrayKeys && Runtime.version().feature() < 26;
        assertThat(onLoop(() -> handler.get().usesArraySelectedKeys())).isEqualTo(expected);
    }

    @ParameterizedTest(name = "array keys: {0}")
    @ValueSource(booleans = {true, false})
    void pipeSourceBecomesReadableAfterBytesAreWrittenToTheSink(boolean arrayKeys) throws Exception {
        start(arrayKeys);
        PipeHandle handle = pipe(true);
        IoRegistration registration = register(handle);
        assertThat(registration.isValid()).isTrue();
        assertThat(onLoop(() -> registration.submit(NioIoOps.READ))).isEqualTo(0L);

        handle.write("hello");
        NioIoEvent event = handle.events.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(event).isNotNull();
        assertThat(event.isReadable()).isTrue();
        assertThat(event.isWritable()).isFalse();
        assertThat(event.readyOps()).isEqualTo(NioIoOps.READ);
        assertThat(handle.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("hello");

        handle.write("again");
        assertThat(handle.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("again");
    }

    @ParameterizedTest(name = "array keys: {0}")
    @ValueSource(booleans = {true, false})
    void submitReplacesInterestOpsAndReturnsThePreviousOnes(boolean arrayKeys) throws Exception {
        start(arrayKeys);
        PipeHandle handle = pipe(false);
        IoRegistration registration = register(handle);
        SelectionKey key = onLoop(registration::attachment);
        assertThat(key.interestOps()).isZero();

        handle.write("x");
        afterNextSelect();
        assertThat(handle.events).as("no interest, no event").isEmpty();

        assertThat(onLoop(() -> registration.submit(NioIoOps.READ))).isEqualTo(0L);
        assertThat(handle.events.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isNotNull();
        assertThat(onLoop(() -> registration.submit(NioIoOps.NONE))).isEqualTo((long) SelectionKey.OP_READ);
        afterNextSelect();
        handle.events.clear();
        afterNextSelect();
        assertThat(handle.events).as("interest removed while still readable").isEmpty();

        // A pipe source cannot write: the JDK's refusal reaches the caller.
        assertThatThrownBy(() -> onLoop(() -> registration.submit(NioIoOps.WRITE)))
                .hasCauseInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> onLoop(() -> registration.submit(new io.weir.channel.IoOps() { })))
                .hasCauseInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "array keys: {0}")
    @ValueSource(booleans = {true, false})
    void cancelStopsEventsAndUncountsTheHandle(boolean arrayKeys) throws Exception {
        start(arrayKeys);
        PipeHandle handle = pipe(false);
        IoRegistration registration = register(handle);
        assertThat(loop.registeredChannels()).isEqualTo(1);
        handle.write("x");
        onLoop(() -> registration.submit(NioIoOps.READ));
        assertThat(handle.events.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isNotNull();

        assertThat(onLoop(registration::cancel)).isTrue();
        assertThat(onLoop(registration::cancel)).isFalse();
        assertThat(registration.isValid()).isFalse();
        assertThat(loop.registeredChannels()).isZero();
        afterNextSelect();
        handle.events.clear();
        afterNextSelect();
        assertThat(handle.events).isEmpty();
        assertThat(handle.isOpen()).as("cancel does not close the handle").isTrue();
        assertThatThrownBy(() -> onLoop(() -> registration.submit(NioIoOps.READ)))
                .hasCauseInstanceOf(IllegalStateException.class);
    }

    @ParameterizedTest(name = "array keys: {0}")
    @ValueSource(booleans = {true, false})
    void cancelledHandleCanRegisterAgainAtOnce(boolean arrayKeys) throws Exception {
        start(arrayKeys);
        PipeHandle handle = pipe(true);
        IoRegistration first = register(handle);
        // Cancel and register again in one task: the cancelled key has not been flushed by a select yet.
        IoRegistration second = onLoop(() -> {
            first.cancel();
            return loop.register(handle).getNow();
        });
        assertThat(second).isNotNull();
        assertThat(second.isValid()).isTrue();
        assertThat(loop.registeredChannels()).isEqualTo(1);
        onLoop(() -> second.submit(NioIoOps.READ));
        handle.write("back");
        assertThat(handle.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("back");
    }

    @ParameterizedTest(name = "array keys: {0}")
    @ValueSource(booleans = {true, false})
    void reRegisteringFromInsideAnEventDoesNotLoseOtherHandlesReadiness(boolean arrayKeys) throws Exception {
        start(arrayKeys);
        PipeHandle flipper = pipe(true);
        PipeHandle other = pipe(true);
        IoRegistration flipperReg = register(flipper);
        IoRegistration otherReg = register(other);
        AtomicReference<IoRegistration> reRegistered = new AtomicReference<>();
        flipper.onEvent = registration -> {
            if (reRegistered.get() == null) {
                registration.cancel();
                // Flushes the cancelled key with a select in the middle of dispatching.
                IoRegistration again = loop.register(flipper).getNow();
                again.submit(NioIoOps.READ);
                reRegistered.set(again);
            }
        };
        flipper.write("a");
        other.write("b");
        onLoop(() -> {
            flipperReg.submit(NioIoOps.READ);
            otherReg.submit(NioIoOps.READ);
            return null;
        });
        assertThat(other.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("b");
        assertThat(flipper.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("a");
        flipper.write("c");
        assertThat(flipper.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("c");
        assertThat(reRegistered.get().isValid()).isTrue();
        assertThat(loop.registeredChannels()).isEqualTo(2);
    }

    @ParameterizedTest(name = "array keys: {0}")
    @ValueSource(booleans = {true, false})
    void registeringTheSameChannelTwiceIsRefused(boolean arrayKeys) throws Exception {
        start(arrayKeys);
        PipeHandle handle = pipe(true);
        register(handle);
        Future<IoRegistration> second = loop.register(handle);
        assertThat(second.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(second.cause()).isInstanceOf(IllegalStateException.class).hasMessageContaining("already");
        assertThat(loop.registeredChannels()).isEqualTo(1);
    }

    @ParameterizedTest(name = "array keys: {0}")
    @ValueSource(booleans = {true, false})
    void channelClosedByAnEarlierHandleOfTheSamePassIsSkippedAndItsHandleClosed(boolean arrayKeys)
            throws Exception {
        start(arrayKeys);
        PipeHandle a = pipe(false);
        PipeHandle b = pipe(false);
        IoRegistration aReg = register(a);
        IoRegistration bReg = register(b);
        // Whichever is dispatched first closes the other's channel behind the handler's back.
        a.onEvent = registration -> closeChannelOnce(b);
        b.onEvent = registration -> closeChannelOnce(a);
        a.write("x");
        b.write("y");
        onLoop(() -> {
            aReg.submit(NioIoOps.READ);
            bReg.submit(NioIoOps.READ);
            return null;
        });
        afterNextSelect();

        PipeHandle first = a.events.isEmpty() ? b : a;
        PipeHandle second = first == a ? b : a;
        IoRegistration secondReg = second == a ? aReg : bReg;
        assertThat(second.events).isEmpty();
        assertThat(second.closes.get()).as("the handle of the dead key is closed").isEqualTo(1);
        assertThat(first.closes.get()).isZero();
        assertThat(secondReg.isValid()).isFalse();
        assertThat(loop.registeredChannels()).isEqualTo(1);
    }

    private static void closeChannelOnce(PipeHandle handle) {
        try {
            if (handle.isOpen()) {
                handle.closeChannel();
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest(name = "array keys: {0}")
    @ValueSource(booleans = {true, false})
    void rebuiltSelectorKeepsEveryRegistrationWorking(boolean arrayKeys) throws Exception {
        start(arrayKeys);
        PipeHandle reading = pipe(true);
        PipeHandle idle = pipe(true);
        IoRegistration readingReg = register(reading);
        IoRegistration idleReg = register(idle);
        onLoop(() -> readingReg.submit(NioIoOps.READ));
        reading.write("before");
        assertThat(reading.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("before");
        SelectionKey oldKey = onLoop(readingReg::attachment);

        onLoop(() -> {
            handler.get().rebuildSelector();
            return null;
        });

        SelectionKey newKey = onLoop(readingReg::attachment);
        assertThat(newKey).isNotSameAs(oldKey);
        assertThat(oldKey.isValid()).isFalse();
        assertThat(newKey.interestOps()).isEqualTo(SelectionKey.OP_READ);
        assertThat(onLoop(() -> handler.get().usesArraySelectedKeys()))
                .isEqualTo(arrayKeys && Runtime.version().feature() < 26);
        assertThat(loop.registeredChannels()).isEqualTo(2);
        assertThat(readingReg.isValid()).isTrue();
        assertThat(idleReg.isValid()).isTrue();

        reading.write("after");
        assertThat(reading.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("after");
        assertThat(onLoop(() -> idleReg.submit(NioIoOps.READ))).isEqualTo(0L);
        idle.write("idle");
        assertThat(idle.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("idle");
        // Tasks from other threads still wake the loop: wakeup() targets the new selector.
        for (int i = 0; i < 20; i++) {
            assertThat(loop.submit(() -> "woken").get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("woken");
        }
    }

    @ParameterizedTest(name = "array keys: {0}")
    @ValueSource(booleans = {true, false})
    void selectorThatKeepsReturningEarlyIsRebuiltWithItsRegistrations(boolean arrayKeys) throws Exception {
        start(arrayKeys, 3);
        PipeHandle handle = pipe(true);
        IoRegistration registration = register(handle);
        onLoop(() -> registration.submit(NioIoOps.READ));
        SelectionKey original = onLoop(registration::attachment);

        // Waking the selector behind the handler's back makes select() return nothing, early and unannounced:
        // what the JDK's spinning selector does. Nothing is scheduled, so the loop blocks again after each.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        SelectionKey current;
        while ((current = registration.attachment()) == original && System.nanoTime() < deadline) {
            current.selector().wakeup();
            Thread.yield();
        }
        assertThat(current).as("selector rebuilt").isNotSameAs(original);
        // The rebuild publishes the new key before it closes the old selector, within the loop's select: a
        // task runs after both.
        assertThat(onLoop(() -> original.selector().isOpen())).isFalse();
        assertThat(loop.registeredChannels()).isEqualTo(1);
        handle.write("survived");
        assertThat(handle.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("survived");
    }

    @ParameterizedTest(name = "array keys: {0}")
    @ValueSource(booleans = {true, false})
    void handleThatThrowsDoesNotStopDispatching(boolean arrayKeys) throws Exception {
        start(arrayKeys);
        PipeHandle faulty = pipe(true);
        IoRegistration registration = register(faulty);
        faulty.onEvent = r -> {
            throw new IllegalStateException("handle failed on purpose");
        };
        onLoop(() -> registration.submit(NioIoOps.READ));
        faulty.write("1");
        assertThat(faulty.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("1");
        faulty.write("2");
        assertThat(faulty.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("2");
        assertThat(registration.isValid()).isTrue();
    }

    @ParameterizedTest(name = "array keys: {0}")
    @ValueSource(booleans = {true, false})
    void registrationFromAnotherThreadWhileTheLoopWaitsSucceeds(boolean arrayKeys) throws Exception {
        start(arrayKeys);
        loop.submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        for (int i = 0; i < 10; i++) {
            PipeHandle handle = pipe(true);
            IoRegistration registration = register(handle);
            onLoop(() -> registration.submit(NioIoOps.READ));
            handle.write("n" + i);
            assertThat(handle.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("n" + i);
        }
        assertThat(loop.registeredChannels()).isEqualTo(10);
    }

    @ParameterizedTest(name = "array keys: {0}")
    @ValueSource(booleans = {true, false})
    void aLoopWhosePeerAnswersQuicklyPollsBeforeItBlocksAndStillHearsTasks(boolean arrayKeys) throws Exception {
        start(arrayKeys, NioIoHandler.DEFAULT_SELECTOR_AUTO_REBUILD_THRESHOLD,
                NioIoHandler.CONVERSATION_IDLE_POLL_NANOS);
        assertThat(longestPollInAConversation()).isPositive();
    }

    @ParameterizedTest(name = "array keys: {0}")
    @ValueSource(booleans = {true, false})
    void byDefaultALoopNeverPollsEvenWhenItsPeerAnswersQuickly(boolean arrayKeys) throws Exception {
        // A server with slack pays for polling in CPU (a loop whose requests come a little closer together than
        // the poll never sleeps), so polling is for those who ask for it.
        assertThat(NioIoHandler.DEFAULT_MAX_IDLE_POLL_NANOS).isZero();
        start(arrayKeys, NioIoHandler.DEFAULT_SELECTOR_AUTO_REBUILD_THRESHOLD,
                NioIoHandler.DEFAULT_MAX_IDLE_POLL_NANOS);
        assertThat(longestPollInAConversation()).isZero();
    }

    @Test
    void aNegativeIdlePollIsRefused() {
        assertThatThrownBy(() -> NioIoHandler.newFactory(SelectorProvider.provider(), -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxIdlePollNanos");
    }

    /**
     * Writes one byte at a time to a pipe the loop reads, 200 times, each after the loop echoed the last and ran
     * a task from this thread; returns the longest idle poll the handler was at when it heard a byte. Every write
     * ends a sleep of the loop's well within a millisecond unless the machine stalls, so a poll that is allowed
     * grows; tasks from this thread meanwhile may land while it polls, and must run all the same.
     */
    private long longestPollInAConversation() throws Exception {
        PipeHandle handle = pipe(true);
        AtomicLong longestPoll = new AtomicLong();
        handle.onEvent = r -> longestPoll.accumulateAndGet(handler.get().idlePollNanos(), Math::max);
        IoRegistration registration = register(handle);
        onLoop(() -> registration.submit(NioIoOps.READ));
        for (int i = 0; i < 200; i++) {
            handle.write("!");
            assertThat(handle.received.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("write " + i).isEqualTo("!");
            CountDownLatch ran = new CountDownLatch(1);
            loop.execute(ran::countDown);
            assertThat(ran.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("task " + i).isTrue();
        }
        return longestPoll.get();
    }

    @ParameterizedTest(name = "array keys: {0}")
    @ValueSource(booleans = {true, false})
    void aLoopThatOnlyTasksAndTimersWakeNeverPolls(boolean arrayKeys) throws Exception {
        start(arrayKeys, NioIoHandler.DEFAULT_SELECTOR_AUTO_REBUILD_THRESHOLD,
                NioIoHandler.CONVERSATION_IDLE_POLL_NANOS);
        AtomicLong longestPoll = new AtomicLong();
        for (int i = 0; i < 50; i++) {
            loop.submit(() -> longestPoll.accumulateAndGet(handler.get().idlePollNanos(), Math::max))
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            loop.schedule(() -> longestPoll.accumulateAndGet(handler.get().idlePollNanos(), Math::max),
                    100, TimeUnit.MICROSECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        assertThat(longestPoll.get()).isZero();
    }
}
