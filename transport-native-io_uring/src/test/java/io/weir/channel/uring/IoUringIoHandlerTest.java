package io.weir.channel.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.channel.EventLoop;
import io.weir.channel.IoEvent;
import io.weir.channel.IoHandle;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.IoOps;
import io.weir.channel.IoRegistration;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.util.concurrent.ScheduledFuture;
import io.weir.util.platform.PlatformInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IoUringIoHandlerTest {
    private static final long TIMEOUT_SECONDS = 10;
    private static final int POLLIN = 1;

    private final List<EventFdHandle> handles = new ArrayList<>();
    private final AtomicReference<IoUringIoHandler> handler = new AtomicReference<>();
    private MultiThreadIoEventLoopGroup group;
    private EventLoop loop;

    @BeforeAll
    static void loadNatives() {
        assumeTrue(PlatformInfo.isLinux(), "io_uring exists only on Linux");
        IoUring.ensureAvailability();
    }

    @AfterEach
    void tearDown() throws Exception {
        shutdown();
        for (EventFdHandle h : handles) {
            h.fd.close();
        }
    }

    private void start() {
        start(IoUringIoHandler.newFactory());
    }

    private void start(IoHandlerFactory factory) {
        group = new MultiThreadIoEventLoopGroup(1, l -> {
            IoUringIoHandler h = (IoUringIoHandler) factory.newHandler(l);
            handler.set(h);
            return h;
        });
        loop = group.next();
    }

    private void shutdown() throws InterruptedException {
        if (group != null) {
            assertThat(group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isTrue();
            group = null;
        }
    }

    private EventFdHandle newHandle() throws IOException {
        EventFdHandle h = new EventFdHandle();
        handles.add(h);
        return h;
    }

    private IoUringIoRegistration register(IoUringIoHandle handle) throws Exception {
        return (IoUringIoRegistration) loop.register(handle).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private <T> T onLoop(java.util.concurrent.Callable<T> task) throws Exception {
        return loop.submit(task).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private void onLoop(Runnable task) throws Exception {
        loop.submit(task).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private static String cancelled(int opcode, int data) {
        return "complete op=" + opcode + " res=-" + Native.ECANCELED + " data=" + data;
    }

    // ---------------------------------------------------------------- the loop

    @Test
    void runsTasks() throws Exception {
        start();
        assertThat(onLoop(() -> 6 * 7)).isEqualTo(42);
    }

    @Test
    void tasksFromOtherThreadsWakeABlockedWait() throws Exception {
        start();
        // Each round the loop goes back to io_uring_enter with no timeout: only the eventfd read can end it.
        for (int i = 0; i < 200; i++) {
            CountDownLatch ran = new CountDownLatch(1);
            loop.execute(ran::countDown);
            assertThat(ran.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("round " + i).isTrue();
        }
    }

    @Test
    void scheduledTasksRunAtTheirDeadlinesWithoutSpinning() throws Exception {
        start();
        long entersBefore = onLoop(() -> handler.get().enterCount());
        List<Integer> ran = new CopyOnWriteArrayList<>();
        ScheduledFuture<?> late = loop.schedule(() -> ran.add(60), 60, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> middle = loop.schedule(() -> ran.add(40), 40, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> cancelled = loop.schedule(() -> ran.add(-1), 10, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> early = loop.schedule(() -> ran.add(20), 20, TimeUnit.MILLISECONDS);
        assertThat(cancelled.cancel(false)).isTrue();
        early.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        middle.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        late.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(ran).containsExactlyInAnyOrder(20, 40, 60);
        // A loop that polled instead of waiting with the deadline as the enter's timeout would have entered the
        // kernel thousands of times in 60 ms; waiting, it enters a few times per task and deadline.
        assertThat(onLoop(() -> handler.get().enterCount()) - entersBefore).isLessThan(100);
    }

    @Test
    void singleIssuerRingIsEnabledOnTheLoopAndItsDescriptorRegistered() throws Exception {
        start();
        IoUringIoHandler h = handler.get();
        assertThat(h.setupFlags() & IoUring.setupFlags()).isEqualTo(IoUring.setupFlags());
        // The loop submits (the wake-up read is in flight) and its enters go through the registered descriptor.
        assertThat(onLoop(h::inflightCount)).isEqualTo(1);
        assertThat(onLoop(h::isRingFdRegistered)).isTrue();
    }

    // ---------------------------------------------------------------- operations

    @Test
    void completionReachesTheHandleWithItsOpcodeResultAndData() throws Exception {
        start();
        EventFdHandle h = newHandle();
        IoUringIoRegistration registration = register(h);
        long id = onLoop(() -> registration.submit(h.read((short) 7)));
        assertThat(UserData.id(id)).isEqualTo(registration.id());
        h.write(5);
        assertThat(h.next()).isEqualTo("complete op=" + IoUringIoOps.OP_READ + " res=8 data=7");
        assertThat(h.buffer.getLong(0)).isEqualTo(5);
        assertThat(onLoop(registration::inflightCount)).isZero();
    }

    @Test
    void oneEnterSubmitsEveryOperationQueuedInALoopTurn() throws Exception {
        start();
        Set<Long> entersThatCompleted = ConcurrentHashMap.newKeySet();
        AtomicInteger completed = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(100);
        IoUringIoHandle nops = new IoUringIoHandle() {
            @Override
            public void handle(IoRegistration registration, IoEvent event) {
                entersThatCompleted.add(handler.get().enterCount());
                completed.incrementAndGet();
                all.countDown();
            }

            @Override
            public void unregistered() {
            }

            @Override
            public void close() {
            }
        };
        IoRegistration registration = register(nops);
        onLoop(() -> {
            for (int i = 0; i < 100; i++) {
                registration.submit(IoUringIoOps.newNop((short) i));
            }
        });
        assertThat(all.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(completed).hasValue(100);
        assertThat(entersThatCompleted).as("all submitted and completed by one enter").hasSize(1);
    }

    @Test
    void multishotOperationStaysInFlightUntilItsLastCompletion() throws Exception {
        start();
        EventFdHandle h = newHandle();
        IoUringIoRegistration registration = register(h);
        onLoop(() -> registration.submit(IoUringIoOps.newPollAdd(h.fd.intValue(), POLLIN, true, (short) 3)));
        h.write(1);
        assertThat(h.next()).isEqualTo("complete op=" + IoUringIoOps.OP_POLL_ADD + " res=" + POLLIN + " data=3");
        assertThat(onLoop(registration::inflightCount)).as("CQE_F_MORE: still armed").isEqualTo(1);

        registration.cancel();
        assertThat(h.next()).isEqualTo(cancelled(IoUringIoOps.OP_POLL_ADD, 3));
        assertThat(h.next()).isEqualTo("unregistered");
        assertThat(h.touchedAfterFree()).isFalse();
    }

    // ---------------------------------------------------------------- cancellation

    /**
     * The read lends the handle's memory to the kernel. After cancel the handle hears the read's -ECANCELED and
     * only then unregistered(); a value written to the eventfd afterwards lands nowhere: had the read still been
     * pending when the handle freed (here: stopped watching) its memory, the kernel would have written it there.
     */
    @Test
    void cancelledRegistrationsReadCompletesBeforeTheHandleMayFreeItsMemory() throws Exception {
        start();
        EventFdHandle h = newHandle();
        IoUringIoRegistration registration = register(h);
        onLoop(() -> {
            registration.submit(h.read((short) 1));
            registration.submit(h.read((short) 2));
        });
        onLoop(() -> assertThat(registration.cancel()).isTrue());
        assertThat(List.of(h.next(), h.next())).containsExactlyInAnyOrder(
                cancelled(IoUringIoOps.OP_READ, 1), cancelled(IoUringIoOps.OP_READ, 2));
        assertThat(h.next()).isEqualTo("unregistered");

        h.write(42);
        // A round trip through the ring on another registration: the kernel had every chance to complete a read.
        EventFdHandle other = newHandle();
        IoUringIoRegistration otherRegistration = register(other);
        onLoop(() -> otherRegistration.submit(IoUringIoOps.newNop((short) 9)));
        assertThat(other.next()).isEqualTo("complete op=" + IoUringIoOps.OP_NOP + " res=0 data=9");

        assertThat(h.buffer.getLong(0)).as("no read wrote after unregistered()").isEqualTo(EventFdHandle.SENTINEL);
        assertThat(h.touchedAfterFree()).isFalse();
        assertThat(h.log).hasSize(3);
        assertThat(registration.cancel()).as("already cancelled").isFalse();
    }

    @Test
    void cancelFromAnotherThreadCancelsOnTheLoop() throws Exception {
        start();
        EventFdHandle h = newHandle();
        IoUringIoRegistration registration = register(h);
        onLoop(() -> registration.submit(h.read((short) 4)));
        assertThat(registration.cancel()).isTrue();
        assertThat(registration.isValid()).isFalse();
        assertThat(h.next()).isEqualTo(cancelled(IoUringIoOps.OP_READ, 4));
        assertThat(h.next()).isEqualTo("unregistered");
        assertThat(h.touchedAfterFree()).isFalse();
    }

    @Test
    void registrationWithNothingInFlightIsUnregisteredAtOnce() throws Exception {
        start();
        EventFdHandle h = newHandle();
        IoUringIoRegistration registration = register(h);
        onLoop(() -> assertThat(registration.cancel()).isTrue());
        assertThat(h.next()).isEqualTo("unregistered");
    }

    @Test
    void anIdIsReusedOnlyAfterItsRegistrationsLastCompletion() throws Exception {
        start();
        EventFdHandle first = newHandle();
        IoUringIoRegistration firstRegistration = register(first);
        int[] ids = onLoop(() -> {
            firstRegistration.submit(first.read((short) 0));
            firstRegistration.cancel();
            // The cancellation is queued, the read still in flight: the id is not free yet.
            IoUringIoRegistration second = (IoUringIoRegistration) handler.get().register(newHandle());
            return new int[] {firstRegistration.id(), second.id()};
        });
        assertThat(ids[1]).isNotEqualTo(ids[0]);
        first.next();
        assertThat(first.next()).isEqualTo("unregistered");
        IoUringIoRegistration third = register(newHandle());
        assertThat(third.id()).isEqualTo(ids[0]);
    }

    @Test
    void registrationCountFollowsRegisterAndCancel() throws Exception {
        start();
        IoUringIoRegistration a = register(newHandle());
        register(newHandle());
        assertThat(loop.submit(() -> handler.get().registrationCount()).get()).isEqualTo(2);
        a.cancel();
        assertThat(handler.get().registrationCount()).isEqualTo(1);
    }

    // ---------------------------------------------------------------- shutdown

    @Test
    void shutdownWithOperationsInFlightCancelsThemBeforeClosingTheHandles() throws Exception {
        start();
        EventFdHandle reading = newHandle();
        EventFdHandle polling = newHandle();
        IoUringIoRegistration r1 = register(reading);
        IoUringIoRegistration r2 = register(polling);
        onLoop(() -> {
            r1.submit(reading.read((short) 5));
            r2.submit(IoUringIoOps.newPollAdd(polling.fd.intValue(), POLLIN, true, (short) 6));
        });
        shutdown();

        assertThat(reading.log).containsExactly(cancelled(IoUringIoOps.OP_READ, 5), "unregistered", "close");
        assertThat(polling.log).containsExactly(cancelled(IoUringIoOps.OP_POLL_ADD, 6), "unregistered", "close");
        assertThat(reading.buffer.getLong(0)).isEqualTo(EventFdHandle.SENTINEL);
        assertThat(reading.touchedAfterFree()).isFalse();
        assertThat(polling.touchedAfterFree()).isFalse();
        assertThat(handler.get().inflightCount()).as("drained, the wake-up read included").isZero();
    }

    // ---------------------------------------------------------------- setup flags

    /** Why this kernel refuses a ring with {@code flags}, or null when it takes them. */
    private static String refusal(int flags) {
        try {
            IoUringRing.open(8, 16, flags).close();
            return null;
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** Every fallback the handler may end up with on an older kernel runs the same way on this one. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void everySetupFlagFallbackSubmitsWakesAndCancels(int candidate) throws Exception {
        int flags = IoUring.SETUP_FLAG_CANDIDATES[candidate];
        // A kernel older than a flag set refuses it, and the handler never picks it there (IoUring probes them).
        String refusal = refusal(flags);
        assumeTrue(refusal == null, () -> "this kernel refuses setup flags 0x" + Integer.toHexString(flags) + ": "
                + refusal);
        start(IoUringIoHandler.newFactoryWithSetupFlags(flags));
        assertThat(handler.get().setupFlags() & flags).isEqualTo(flags);
        for (int i = 0; i < 20; i++) {
            CountDownLatch ran = new CountDownLatch(1);
            loop.execute(ran::countDown);
            assertThat(ran.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        }
        EventFdHandle h = newHandle();
        IoUringIoRegistration registration = register(h);
        onLoop(() -> registration.submit(h.read((short) 1)));
        h.write(3);
        assertThat(h.next()).isEqualTo("complete op=" + IoUringIoOps.OP_READ + " res=8 data=1");
        onLoop(() -> registration.submit(h.read((short) 2)));
        registration.cancel();
        assertThat(h.next()).isEqualTo(cancelled(IoUringIoOps.OP_READ, 2));
        assertThat(h.next()).isEqualTo("unregistered");
    }

    // ---------------------------------------------------------------- misuse

    @Test
    void incompatibleHandlesAreRefused() throws Exception {
        start();
        IoHandle foreign = new IoHandle() {
            @Override
            public void handle(IoRegistration registration, IoEvent event) {
            }

            @Override
            public void close() {
            }
        };
        assertThat(handler.get().isCompatible(EventFdHandle.class)).isTrue();
        assertThat(handler.get().isCompatible(foreign.getClass())).isFalse();
        assertThatThrownBy(() -> loop.register(foreign).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void submitOffTheLoopOrAfterCancelOrOfAForeignKindIsRefused() throws Exception {
        start();
        EventFdHandle h = newHandle();
        IoUringIoRegistration registration = register(h);
        assertThatThrownBy(() -> registration.submit(h.read((short) 0)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("event loop");
        onLoop(() -> {
            assertThatThrownBy(() -> registration.submit(new IoOps() { }))
                    .isInstanceOf(IllegalArgumentException.class);
            IoUringIoOps skip = new IoUringIoOps(IoUringIoOps.OP_NOP, (byte) (1 << 6), (short) 0, -1, 0, 0, 0, 0,
                    (short) 0, 0, 0, (short) 0);
            assertThatThrownBy(() -> registration.submit(skip))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("CQE_SKIP_SUCCESS");
            registration.cancel();
            assertThatThrownBy(() -> registration.submit(IoUringIoOps.newNop((short) 0)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("cancelled");
        });
    }

    @Test
    void handleThatThrowsDoesNotStopTheLoop() throws Exception {
        start();
        CountDownLatch thrown = new CountDownLatch(1);
        IoUringIoHandle throwing = new IoUringIoHandle() {
            @Override
            public void handle(IoRegistration registration, IoEvent event) {
                thrown.countDown();
                throw new IllegalStateException("handle failed on purpose");
            }

            @Override
            public void unregistered() {
            }

            @Override
            public void close() {
            }
        };
        IoRegistration registration = register(throwing);
        onLoop(() -> registration.submit(IoUringIoOps.newNop((short) 0)));
        assertThat(thrown.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(onLoop(() -> "still running")).isEqualTo("still running");
    }

    @Test
    void ringSizesOutsideTheKernelsLimitsAreRefused() {
        assertThatThrownBy(() -> IoUringIoHandler.newFactory(0, 8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ringEntries: 0");
        assertThatThrownBy(() -> IoUringIoHandler.newFactory(IoUringIoHandler.MAX_RING_ENTRIES + 1,
                IoUringIoHandler.MAX_CQ_ENTRIES)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> IoUringIoHandler.newFactory(16, 8)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cqEntries: 8");
    }
}
