package io.weir.channel.kqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.channel.EventLoop;
import io.weir.channel.IoEvent;
import io.weir.channel.IoHandle;
import io.weir.channel.IoHandler;
import io.weir.channel.IoHandlerContext;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.IoRegistration;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.FileDescriptor;
import io.weir.channel.unix.Socket;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The kqueue handler's contract: filters, edge-triggering, cancellation, wake-ups, deadlines, growth, shutdown. */
class KQueueIoHandlerTest {
    private static final long TIMEOUT_SECONDS = 10;
    private static final int MAX_SOCKETS_TO_REUSE_A_NUMBER = 256;

    private final List<Socket> sockets = new ArrayList<>();
    private final AtomicReference<KQueueIoHandler> handler = new AtomicReference<>();
    // Counted down each time the loop is about to block (its last look at the task queue found nothing).
    private volatile CountDownLatch aboutToBlock = new CountDownLatch(1);
    private MultiThreadIoEventLoopGroup group;
    private EventLoop loop;
    private Socket server;

    @BeforeAll
    static void loadNatives() {
        assumeTrue(KQueue.isAvailable(), () -> "kqueue unavailable, so not tested: " + KQueue.unavailabilityCause());
    }

    @BeforeEach
    void setUp() throws IOException {
        server = track(KQueueSockets.listener());
    }

    @AfterEach
    void tearDown() throws Exception {
        if (group != null) {
            assertThat(group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isTrue();
        }
        for (Socket s : sockets) {
            s.close();
        }
    }

    private Socket track(Socket socket) {
        sockets.add(socket);
        return socket;
    }

    private void start(int eventArrayLength) {
        IoHandlerFactory kqueue = KQueueIoHandler.newFactory(eventArrayLength);
        group = new MultiThreadIoEventLoopGroup(1, l -> new WatchedIoHandler((KQueueIoHandler) kqueue.newHandler(l)));
        loop = group.next();
    }

    private void start() {
        start(KQueueIoHandler.DEFAULT_EVENT_ARRAY_LENGTH);
    }

    private Socket[] pair() throws IOException {
        Socket[] pair = KQueueSockets.connectedPair(server);
        track(pair[0]);
        track(pair[1]);
        return pair;
    }

    private IoRegistration register(KQueueIoHandle handle, KQueueIoOps ops) throws Exception {
        IoRegistration registration = loop.register(handle).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        onLoop(() -> registration.submit(ops));
        return registration;
    }

    private void onLoop(Runnable task) throws Exception {
        loop.submit(task).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private long wakeupsSeen() throws Exception {
        return loop.submit(() -> handler.get().wakeupsSeen()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void readFilterFiresAfterThePeerWrites() throws Exception {
        start();
        Socket[] pair = pair();
        Handle handle = new Handle(pair[1]);
        register(handle, KQueueIoOps.READ);
        KQueueSockets.write(pair[0], "ping");
        KQueueIoEvent event = handle.nextEvent();
        assertThat(event.isReadable()).isTrue();
        assertThat(event.isWritable()).isFalse();
        assertThat(event.isEndOfFile()).isFalse();
    }

    @Test
    void submitAddsAndDeletesFiltersAndReturnsThePreviousOnes() throws Exception {
        start();
        Socket[] pair = pair();
        Handle handle = new Handle(pair[1]);
        IoRegistration registration = register(handle, KQueueIoOps.WRITE);
        // An empty send buffer: writable at once.
        assertThat(handle.nextEvent().isWritable()).isTrue();

        AtomicReference<Long> previous = new AtomicReference<>();
        onLoop(() -> previous.set(registration.submit(KQueueIoOps.READ)));
        assertThat(previous.get()).isEqualTo((long) KQueueIoOps.WRITE.value());
        KQueueSockets.write(pair[0], "x");
        assertThat(handle.nextEvent().isReadable()).isTrue();
        // Forced waits (tasks) after the read event: the deleted write filter never fires again.
        onLoop(() -> { });
        onLoop(() -> { });
        assertThat(handle.events).isEmpty();
    }

    @Test
    void bothFiltersFireAsSeparateEvents() throws Exception {
        start();
        Socket[] pair = pair();
        Handle handle = new Handle(pair[1]);
        KQueueSockets.write(pair[0], "x");
        register(handle, KQueueIoOps.READ.with(KQueueIoOps.WRITE));
        KQueueIoEvent first = handle.nextEvent();
        KQueueIoEvent second = handle.nextEvent();
        assertThat(first.isReadable() ^ second.isReadable()).as(first + ", " + second).isTrue();
        assertThat(first.isWritable() ^ second.isWritable()).as(first + ", " + second).isTrue();
    }

    @Test
    void clearedFilterFiresOncePerChange() throws Exception {
        start();
        Socket[] pair = pair();
        Handle handle = new Handle(pair[1]);
        register(handle, KQueueIoOps.READ);
        KQueueSockets.write(pair[0], "a");
        assertThat(handle.nextEvent().isReadable()).isTrue();
        // Unread data, yet no new edge (EV_CLEAR): further waits, forced by tasks, report nothing.
        onLoop(() -> { });
        onLoop(() -> { });
        assertThat(handle.events).isEmpty();
        KQueueSockets.write(pair[0], "b");
        assertThat(handle.nextEvent().isReadable()).as("a new edge").isTrue();
    }

    @Test
    void peerShutdownIsReportedAsEndOfFile() throws Exception {
        start();
        Socket[] pair = pair();
        Handle handle = new Handle(pair[1]);
        register(handle, KQueueIoOps.READ);
        pair[0].shutdown(false, true);
        KQueueIoEvent event = handle.nextEvent();
        assertThat(event.isReadable()).isTrue();
        assertThat(event.isEndOfFile()).isTrue();
        assertThat(event.isError()).isFalse();
    }

    @Test
    void refusedConnectIsReportedAsAnErrorOnTheWriteFilter() throws Exception {
        start();
        // A port that was just listened on and is closed now: nobody answers there.
        Socket gone = KQueueSockets.listener();
        InetSocketAddress address = (InetSocketAddress) gone.localAddress();
        gone.close();
        Socket client = track(Socket.newSocketStream());
        Handle handle = new Handle(client);
        boolean connected = client.connect(address);
        assumeTrue(!connected, "loopback refused synchronously");
        register(handle, KQueueIoOps.WRITE);
        KQueueIoEvent event = handle.nextEvent();
        assertThat(event.isWritable()).isTrue();
        assertThat(event.isError()).as(event.toString()).isTrue();
        // The event carries the number: libkqueue consumed SO_ERROR to report it, a BSD kernel leaves it.
        assertThat(event.errorNumber()).isEqualTo(Errors.ECONNREFUSED);
    }

    @Test
    void removingOneOfTwoFiltersKeepsTheOtherEdgeTriggered() throws Exception {
        start();
        Socket[] pair = pair();
        Handle handle = new Handle(pair[1]);
        IoRegistration registration = register(handle, KQueueIoOps.READ.with(KQueueIoOps.WRITE));
        assertThat(handle.nextEvent().isWritable()).isTrue();
        onLoop(() -> registration.submit(KQueueIoOps.READ));
        KQueueSockets.write(pair[0], "a");
        assertThat(handle.nextEvent().isReadable()).isTrue();
        // Unread data: a level-triggered filter would fire on each of these forced waits.
        onLoop(() -> { });
        onLoop(() -> { });
        assertThat(handle.events).isEmpty();
    }

    @Test
    void cancelledRegistrationHearsNothingMoreAndIsUncounted() throws Exception {
        start();
        Socket[] first = pair();
        Handle handle = new Handle(first[1]);
        IoRegistration registration = register(handle, KQueueIoOps.READ);
        assertThat(loop.submit(() -> handler.get().registrationCount()).get()).isEqualTo(1);
        onLoop(() -> assertThat(registration.cancel()).isTrue());
        assertThat(registration.isValid()).isFalse();
        assertThat(registration.cancel()).as("second cancel").isFalse();
        assertThat(loop.submit(() -> handler.get().registrationCount()).get()).isZero();
        KQueueSockets.write(first[0], "late");
        // A second, live handle proves a wait happened after the write.
        Socket[] second = pair();
        Handle other = new Handle(second[1]);
        register(other, KQueueIoOps.READ);
        KQueueSockets.write(second[0], "x");
        assertThat(other.nextEvent().isReadable()).isTrue();
        assertThat(handle.events).isEmpty();
        assertThatThrownBy(() -> loop.submit(() -> registration.submit(KQueueIoOps.READ)).get())
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void cancelFromAnotherThreadTakesEffectOnTheLoop() throws Exception {
        start();
        Socket[] pair = pair();
        Handle handle = new Handle(pair[1]);
        IoRegistration registration = register(handle, KQueueIoOps.READ);
        assertThat(registration.cancel()).isTrue();
        onLoop(() -> { });
        assertThat(loop.submit(() -> handler.get().registrationCount()).get()).isZero();
        // The number can be registered again: the deregistration task deleted the filter.
        Handle again = new Handle(pair[1]);
        register(again, KQueueIoOps.READ);
        KQueueSockets.write(pair[0], "x");
        assertThat(again.nextEvent().isReadable()).isTrue();
        assertThat(handle.events).isEmpty();
    }

    @Test
    void registeringTheSameDescriptorTwiceFails() throws Exception {
        start();
        Socket[] pair = pair();
        register(new Handle(pair[1]), KQueueIoOps.READ);
        assertThatThrownBy(() -> loop.register(new Handle(pair[1])).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalStateException.class);
    }

    /**
     * libkqueue keeps the filters of a descriptor closed without being deleted (its BUGS.md); a BSD kernel drops
     * them. Either way the number, reused by a new socket, must register and fire for its new owner.
     */
    @Test
    void numberClosedBeforeCancelServesItsNextOwner() throws Exception {
        start();
        Socket[] pair = pair();
        Handle stale = new Handle(pair[1]);
        register(stale, KQueueIoOps.READ.with(KQueueIoOps.WRITE));
        stale.nextEvent();
        int number = pair[1].intValue();
        pair[1].close();
        // The kernel hands out the lowest free number: fill the holes below the closed one until it comes back.
        Socket reused = null;
        for (int i = 0; i < MAX_SOCKETS_TO_REUSE_A_NUMBER && reused == null; i++) {
            Socket candidate = track(Socket.newSocketStream());
            if (candidate.intValue() == number) {
                reused = candidate;
            }
        }
        assumeTrue(reused != null, "descriptor " + number + " was not handed out again");
        Socket[] next = KQueueSockets.connectedPair(server, reused);
        track(next[1]);
        Handle owner = new Handle(reused);
        register(owner, KQueueIoOps.READ);
        KQueueSockets.write(next[1], "x");
        KQueueIoEvent event = owner.nextEvent();
        assertThat(event.isReadable()).isTrue();
        assertThat(stale.closed.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("the stale handle was closed").isTrue();
        assertThat(loop.submit(() -> handler.get().registrationCount()).get()).isEqualTo(1);
    }

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
        assertThat(loop.isCompatible(Handle.class)).isTrue();
        assertThat(loop.isCompatible(foreign.getClass())).isFalse();
        assertThatThrownBy(() -> loop.register(foreign).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aTaskFromAnotherThreadEndsABlockedWaitThroughOneUserEvent() throws Exception {
        start();
        onLoop(() -> { });
        long before = wakeupsSeen();
        // The loop has nothing to do and no deadline: only the wake-up can end its wait.
        aboutToBlock = new CountDownLatch(1);
        onLoop(() -> { });
        assertThat(aboutToBlock.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        CountDownLatch ran = new CountDownLatch(1);
        loop.execute(ran::countDown);
        assertThat(ran.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        // wakeupsSeen() itself is a task from this thread and may wake the loop once more; nothing else does.
        long seen = loop.submit(() -> handler.get().wakeupsSeen()).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(seen - before).isBetween(1L, 3L);
    }

    @Test
    void aBurstOfWakeUpsWhileTheLoopIsBusyCostsNoUserEvent() throws Exception {
        start();
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicLong before = new AtomicLong();
        loop.execute(() -> {
            before.set(handler.get().wakeupsSeen());
            busy.countDown();
            awaitQuietly(release);
        });
        assertThat(busy.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        // Not waiting, so not armed: none of these may trigger the user event.
        for (int i = 0; i < 100; i++) {
            handler.get().wakeup();
        }
        release.countDown();
        AtomicLong after = new AtomicLong();
        CountDownLatch checked = new CountDownLatch(1);
        // Scheduled from the loop itself, so no wake-up is involved: the kevent timeout ends the wait.
        loop.execute(() -> loop.schedule(() -> {
            after.set(handler.get().wakeupsSeen());
            checked.countDown();
        }, 20, TimeUnit.MILLISECONDS));
        assertThat(checked.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        // At most the wake-up of the execute() above, which came from this thread.
        assertThat(after.get() - before.get()).isLessThanOrEqualTo(1L);
    }

    @Test
    void aDeadlineAloneEndsTheWaitThroughTheKeventTimeout() throws Exception {
        start();
        AtomicLong before = new AtomicLong();
        AtomicLong after = new AtomicLong();
        AtomicLong ranAfterNanos = new AtomicLong();
        CountDownLatch ran = new CountDownLatch(1);
        long delayNanos = TimeUnit.MILLISECONDS.toNanos(30);
        loop.execute(() -> {
            before.set(handler.get().wakeupsSeen());
            long scheduledAt = System.nanoTime();
            loop.schedule(() -> {
                ranAfterNanos.set(System.nanoTime() - scheduledAt);
                after.set(handler.get().wakeupsSeen());
                ran.countDown();
            }, delayNanos, TimeUnit.NANOSECONDS);
        });
        assertThat(ran.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(ranAfterNanos.get()).as("never early").isGreaterThanOrEqualTo(delayNanos);
        // At most the wake-up that delivered the scheduling task itself, if its user event came after the task
        // ran; nothing else can end the wait before the deadline.
        assertThat(after.get() - before.get()).as("wake-ups while waiting for the deadline").isLessThanOrEqualTo(1L);
    }

    @Test
    void waitThatFillsTheEventArrayGrowsIt() throws Exception {
        start(1);
        Socket[] a = pair();
        Socket[] b = pair();
        Handle first = new Handle(a[1]);
        Handle second = new Handle(b[1]);
        register(first, KQueueIoOps.READ);
        register(second, KQueueIoOps.READ);
        KQueueSockets.write(a[0], "x");
        KQueueSockets.write(b[0], "y");
        assertThat(first.nextEvent().isReadable()).isTrue();
        assertThat(second.nextEvent().isReadable()).isTrue();
        assertThat(loop.submit(() -> handler.get().currentEventArrayLength()).get()).isGreaterThan(1);
    }

    @Test
    void handleThatThrowsDoesNotStopTheLoop() throws Exception {
        start();
        Socket[] pair = pair();
        Handle thrower = new Handle(pair[1]) {
            @Override
            public void handle(IoRegistration registration, IoEvent event) {
                super.handle(registration, event);
                throw new IllegalStateException("handler bug");
            }
        };
        register(thrower, KQueueIoOps.READ);
        KQueueSockets.write(pair[0], "x");
        thrower.nextEvent();
        onLoop(() -> { });
        KQueueSockets.write(pair[0], "y");
        assertThat(thrower.nextEvent().isReadable()).as("the loop still dispatches").isTrue();
    }

    @Test
    void shutdownClosesHandlesThatAreStillRegistered() throws Exception {
        start();
        Socket[] pair = pair();
        Handle handle = new Handle(pair[1]);
        register(handle, KQueueIoOps.READ);
        assertThat(group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isTrue();
        group = null;
        assertThat(handle.closed.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(pair[1].isOpen()).isFalse();
    }

    @Test
    void factoryRejectsAnEventArrayOutOfRange() {
        assertThatThrownBy(() -> KQueueIoHandler.newFactory(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
        assertThatThrownBy(() -> KQueueIoHandler.newFactory(KQueueIoHandler.MAX_EVENT_ARRAY_LENGTH + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void factoryRejectsANegativeIdlePoll() {
        assertThatThrownBy(() -> KQueueIoHandler.newFactory(KQueueIoHandler.DEFAULT_EVENT_ARRAY_LENGTH, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxIdlePollNanos");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A socket as a {@link KQueueIoHandle} that queues every event it hears and counts its closing. */
    private static class Handle implements KQueueIoHandle {
        final Socket socket;
        final BlockingQueue<KQueueIoEvent> events = new LinkedBlockingQueue<>();
        final CountDownLatch closed = new CountDownLatch(1);

        Handle(Socket socket) {
            this.socket = socket;
        }

        @Override
        public FileDescriptor fd() {
            return socket;
        }

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            events.add((KQueueIoEvent) event);
        }

        @Override
        public void close() throws IOException {
            socket.close();
            closed.countDown();
        }

        KQueueIoEvent nextEvent() throws InterruptedException {
            KQueueIoEvent event = events.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (event == null) {
                throw new AssertionError("no event for " + socket + " within " + TIMEOUT_SECONDS + " s");
            }
            return event;
        }
    }

    /** Delegates to the kqueue handler, publishing it and signalling each time the loop is about to block. */
    private final class WatchedIoHandler implements IoHandler {
        private final KQueueIoHandler delegate;

        WatchedIoHandler(KQueueIoHandler delegate) {
            this.delegate = delegate;
            handler.set(delegate);
        }

        @Override
        public int run(IoHandlerContext context) {
            return delegate.run(new IoHandlerContext() {
                @Override
                public boolean canBlock() {
                    boolean canBlock = context.canBlock();
                    if (canBlock && context.delayNanos(System.nanoTime()) == Long.MAX_VALUE) {
                        aboutToBlock.countDown();
                    }
                    return canBlock;
                }

                @Override
                public long delayNanos(long currentTimeNanos) {
                    return context.delayNanos(currentTimeNanos);
                }

                @Override
                public void reportActiveIoTime(long activeIoTimeNanos) {
                    context.reportActiveIoTime(activeIoTimeNanos);
                }
            });
        }

        @Override
        public void prepareToDestroy() {
            delegate.prepareToDestroy();
        }

        @Override
        public void destroy() {
            delegate.destroy();
        }

        @Override
        public IoRegistration register(IoHandle handle) throws Exception {
            return delegate.register(handle);
        }

        @Override
        public void wakeup() {
            delegate.wakeup();
        }

        @Override
        public boolean isCompatible(Class<? extends IoHandle> handleType) {
            return delegate.isCompatible(handleType);
        }

        @Override
        public int registrationCount() {
            return delegate.registrationCount();
        }
    }
}
