package io.weir.channel.epoll;

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
import io.weir.channel.SingleThreadIoEventLoop;
import io.weir.channel.unix.FileDescriptor;
import io.weir.channel.unix.Socket;
import io.weir.util.concurrent.ScheduledFuture;
import io.weir.util.platform.PlatformInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EpollIoHandlerTest {
    private static final long TIMEOUT_SECONDS = 10;

    private final List<Socket> sockets = new ArrayList<>();
    private final AtomicReference<EpollIoHandler> handler = new AtomicReference<>();
    private final AtomicInteger runs = new AtomicInteger();
    private MultiThreadIoEventLoopGroup group;
    private EventLoop loop;
    private Socket server;

    @BeforeAll
    static void loadNatives() {
        assumeTrue(PlatformInfo.isLinux(), "epoll exists only on Linux");
        Epoll.ensureAvailability();
    }

    @BeforeEach
    void setUp() throws IOException {
        server = track(Readiness.listener());
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
        start(eventArrayLength, EpollIoHandler.MAX_IDLE_POLL_NANOS);
    }

    private void start(int eventArrayLength, long maxIdlePollNanos) {
        IoHandlerFactory epoll = EpollIoHandler.newFactory(eventArrayLength, maxIdlePollNanos);
        group = new MultiThreadIoEventLoopGroup(1, l -> new CountingIoHandler((EpollIoHandler) epoll.newHandler(l)));
        loop = group.next();
    }

    private void start() {
        start(EpollIoHandler.DEFAULT_EVENT_ARRAY_LENGTH);
    }

    /** {@code {client, accepted}} tracked for closing. */
    private Socket[] pair() throws IOException {
        Socket[] pair = Readiness.connectedPair(server);
        track(pair[0]);
        track(pair[1]);
        return pair;
    }

    private IoRegistration register(EpollIoHandle handle, EpollIoOps ops) throws Exception {
        IoRegistration registration = loop.register(handle).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        onLoop(() -> registration.submit(ops));
        return registration;
    }

    private void onLoop(Runnable task) throws Exception {
        loop.submit(task).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void registeredSocketHearsReadableAfterThePeerWrites() throws Exception {
        start();
        Socket[] pair = pair();
        SocketHandle handle = new SocketHandle(pair[1]);
        register(handle, EpollIoOps.EPOLLIN);
        SocketHandle.write(pair[0], "ping");
        EpollIoEvent event = handle.nextEvent();
        assertThat(event.isReadable()).isTrue();
        assertThat(event.isWritable()).isFalse();
    }

    @Test
    void submitReplacesTheWatchedEventsAndReturnsThePreviousOnes() throws Exception {
        start();
        Socket[] pair = pair();
        SocketHandle handle = new SocketHandle(pair[1]);
        IoRegistration registration = register(handle, EpollIoOps.EPOLLOUT);
        // An empty send buffer: writable at once.
        assertThat(handle.nextEvent().isWritable()).isTrue();

        AtomicReference<Long> previous = new AtomicReference<>();
        onLoop(() -> previous.set(registration.submit(EpollIoOps.EPOLLIN)));
        assertThat(previous.get()).isEqualTo((long) EpollIoOps.EPOLLOUT.value());
        SocketHandle.write(pair[0], "x");
        EpollIoEvent event = handle.nextEvent();
        assertThat(event.isReadable()).isTrue();
        assertThat(event.isWritable()).as("no longer watched").isFalse();
    }

    @Test
    void edgeTriggeredHandleHearsEachChangeOnce() throws Exception {
        start();
        Socket[] pair = pair();
        SocketHandle handle = new SocketHandle(pair[1]);
        register(handle, EpollIoOps.EPOLLIN);
        SocketHandle.write(pair[0], "a");
        assertThat(handle.nextEvent().isReadable()).isTrue();
        // Unread data, yet no new edge: further waits (forced by tasks) report nothing.
        onLoop(() -> { });
        onLoop(() -> { });
        assertThat(handle.events).isEmpty();
        SocketHandle.write(pair[0], "b");
        assertThat(handle.nextEvent().isReadable()).as("a new edge").isTrue();
    }

    @Test
    void levelTriggeredHandleHearsAgainUntilItReads() throws Exception {
        start();
        Socket[] pair = pair();
        SocketHandle handle = new SocketHandle(pair[1]);
        register(handle, EpollIoOps.EPOLLIN.with(EpollIoOps.LEVEL_TRIGGERED));
        SocketHandle.write(pair[0], "a");
        assertThat(handle.nextEvent().isReadable()).isTrue();
        assertThat(handle.nextEvent().isReadable()).as("same data, next wait").isTrue();
    }

    @Test
    void cancelledRegistrationHearsNothingMore() throws Exception {
        start();
        Socket[] first = pair();
        Socket[] second = pair();
        SocketHandle cancelled = new SocketHandle(first[1]);
        SocketHandle watched = new SocketHandle(second[1]);
        IoRegistration registration = register(cancelled, EpollIoOps.EPOLLIN);
        register(watched, EpollIoOps.EPOLLIN);
        assertThat(((SingleThreadIoEventLoop) loop).registeredChannels()).isEqualTo(2);

        assertThat(registration.cancel()).isTrue();
        assertThat(registration.cancel()).as("second cancel").isFalse();
        assertThat(registration.isValid()).isFalse();
        // Loopback delivers in order: by the time the watched socket's event is dispatched, the cancelled one's
        // data has long been readable.
        SocketHandle.write(first[0], "ignored");
        SocketHandle.write(second[0], "heard");
        assertThat(watched.nextEvent().isReadable()).isTrue();
        onLoop(() -> { });
        assertThat(cancelled.events).isEmpty();
        assertThat(((SingleThreadIoEventLoop) loop).registeredChannels()).isEqualTo(1);
        assertThatThrownBy(() -> loop.submit(() -> registration.submit(EpollIoOps.EPOLLIN))
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void cancelFromAnotherThreadTakesEffectOnTheLoop() throws Exception {
        start();
        Socket[] pair = pair();
        SocketHandle handle = new SocketHandle(pair[1]);
        IoRegistration registration = register(handle, EpollIoOps.EPOLLIN);
        assertThat(registration.cancel()).isTrue();
        onLoop(() -> { });
        // Registering the same descriptor again works once the old registration is gone.
        SocketHandle again = new SocketHandle(pair[1]);
        register(again, EpollIoOps.EPOLLIN);
        SocketHandle.write(pair[0], "x");
        assertThat(again.nextEvent().isReadable()).isTrue();
        assertThat(handle.events).isEmpty();
    }

    @Test
    void registeringTheSameDescriptorTwiceFails() throws Exception {
        start();
        Socket[] pair = pair();
        SocketHandle handle = new SocketHandle(pair[1]);
        register(handle, EpollIoOps.NONE);
        assertThatThrownBy(() -> loop.register(handle).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void numberClosedBehindTheHandlersBackCanBeRegisteredAgain() throws Exception {
        start();
        Socket[] pair = pair();
        SocketHandle stale = new SocketHandle(pair[1]);
        register(stale, EpollIoOps.EPOLLIN);
        int number = pair[1].intValue();
        pair[1].close(); // no cancel: the kernel drops it from the epoll set, the handler's table does not know
        Socket reused = track(Socket.newSocketStream());
        // socket(2) takes the lowest free number, which is the one just closed unless another thread was quicker.
        assumeTrue(reused.intValue() == number, "descriptor number not reused");
        SocketHandle fresh = new SocketHandle(reused);
        register(fresh, EpollIoOps.EPOLLOUT);
        assertThat(stale.closed.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("stale handle closed").isTrue();
        assertThat(((SingleThreadIoEventLoop) loop).registeredChannels()).isEqualTo(1);
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
        assertThat(loop.isCompatible(SocketHandle.class)).isTrue();
        assertThat(loop.isCompatible(foreign.getClass())).isFalse();
        assertThatThrownBy(() -> loop.register(foreign).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void tasksFromOtherThreadsWakeABlockedWait() throws Exception {
        start();
        // Each round the loop goes back to epoll_wait(-1) with nothing to do: only the eventfd can end it.
        for (int i = 0; i < 200; i++) {
            CountDownLatch ran = new CountDownLatch(1);
            loop.execute(ran::countDown);
            assertThat(ran.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("round " + i).isTrue();
        }
    }

    @Test
    void scheduledTasksRunWithoutSpinningAndEarlierDeadlinesReArmTheTimer() throws Exception {
        start();
        onLoop(() -> { });
        int runsBefore = runs.get();
        List<Integer> ran = new CopyOnWriteArrayList<>();
        // The latest first: each later schedule moves the timerfd to an earlier deadline.
        ScheduledFuture<?> late = loop.schedule(() -> ran.add(60), 60, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> middle = loop.schedule(() -> ran.add(40), 40, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> cancelled = loop.schedule(() -> ran.add(-1), 10, TimeUnit.MILLISECONDS);
        ScheduledFuture<?> early = loop.schedule(() -> ran.add(20), 20, TimeUnit.MILLISECONDS);
        assertThat(cancelled.cancel(false)).isTrue();
        early.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        middle.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        late.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        // Which order depends on when each schedule call ran on a busy machine; that they all ran does not.
        assertThat(ran).containsExactlyInAnyOrder(20, 40, 60);
        // A loop that polled instead of blocking until the timerfd fired would have gone round thousands of
        // times in 60 ms; blocking, it goes round a few times per task and timer expiry.
        assertThat(runs.get() - runsBefore).isLessThan(100);
    }

    @Test
    void aLoopWhosePeerAnswersQuicklyPollsBeforeItBlocksAndStillHearsTasks() throws Exception {
        start(EpollIoHandler.DEFAULT_EVENT_ARRAY_LENGTH, EpollIoHandler.CONVERSATION_IDLE_POLL_NANOS);
        assertThat(longestPollInAConversation()).isPositive();
    }

    @Test
    void byDefaultALoopNeverPollsEvenWhenItsPeerAnswersQuickly() throws Exception {
        // A server with slack pays for polling in CPU (a loop whose requests come a little closer together than
        // the poll never sleeps), so polling is for those who ask for it.
        assertThat(EpollIoHandler.DEFAULT_MAX_IDLE_POLL_NANOS).isZero();
        start(EpollIoHandler.DEFAULT_EVENT_ARRAY_LENGTH, EpollIoHandler.DEFAULT_MAX_IDLE_POLL_NANOS);
        assertThat(longestPollInAConversation()).isZero();
    }

    @Test
    void aNegativeIdlePollIsRefused() {
        assertThatThrownBy(() -> EpollIoHandler.newFactory(EpollIoHandler.DEFAULT_EVENT_ARRAY_LENGTH, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxIdlePollNanos");
    }

    /**
     * Writes one byte at a time to a socket the loop reads, 200 times, each after the loop heard the last and ran
     * a task from this thread; returns the longest idle poll the handler was at when it heard a byte. Every write
     * ends a sleep of the loop's well within a millisecond unless the machine stalls, so a poll that is allowed
     * grows; tasks from this thread meanwhile may land while it polls, and must run all the same.
     */
    private long longestPollInAConversation() throws Exception {
        Socket[] pair = pair();
        PollRecordingHandle handle = new PollRecordingHandle(new SocketHandle(pair[1]));
        register(handle, EpollIoOps.EPOLLIN);
        for (int i = 0; i < 200; i++) {
            SocketHandle.write(pair[0], "!");
            assertThat(handle.socket.nextEvent().isReadable()).isTrue();
            CountDownLatch ran = new CountDownLatch(1);
            loop.execute(ran::countDown);
            assertThat(ran.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("task " + i).isTrue();
        }
        return handle.longestPollNanos.get();
    }

    @Test
    void aLoopThatOnlyTasksAndTimersWakeNeverPolls() throws Exception {
        start(EpollIoHandler.DEFAULT_EVENT_ARRAY_LENGTH, EpollIoHandler.CONVERSATION_IDLE_POLL_NANOS);
        AtomicLong longestPoll = new AtomicLong();
        for (int i = 0; i < 50; i++) {
            loop.submit(() -> longestPoll.accumulateAndGet(handler.get().currentIdlePollNanos(), Math::max))
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            loop.schedule(() -> longestPoll.accumulateAndGet(handler.get().currentIdlePollNanos(), Math::max),
                    100, TimeUnit.MICROSECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        assertThat(longestPoll.get()).isZero();
    }

    @Test
    void shutdownClosesHandlesThatAreStillRegistered() throws Exception {
        start();
        Socket[] pair = pair();
        SocketHandle handle = new SocketHandle(pair[1]);
        register(handle, EpollIoOps.EPOLLIN);
        assertThat(group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(handle.closed.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(pair[1].isOpen()).isFalse();
        assertThat(((SingleThreadIoEventLoop) loop).registeredChannels()).isZero();
        group = null;
    }

    @Test
    void waitThatFillsTheEventArrayGrowsIt() throws Exception {
        start(4);
        int count = 40;
        List<SocketHandle> handles = new ArrayList<>();
        List<Socket> clients = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Socket[] pair = pair();
            SocketHandle handle = new SocketHandle(pair[1]);
            register(handle, EpollIoOps.EPOLLIN);
            handles.add(handle);
            clients.add(pair[0]);
        }
        assertThat(((SingleThreadIoEventLoop) loop).registeredChannels()).isEqualTo(count);
        // All must be readable before the loop next waits: keep it busy in a task while the writes happen,
        // otherwise it may wake on the first write and never see more than a few at once.
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch written = new CountDownLatch(1);
        loop.execute(() -> {
            busy.countDown();
            try {
                written.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(busy.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        for (Socket client : clients) {
            SocketHandle.write(client, "!");
        }
        written.countDown();
        for (SocketHandle handle : handles) {
            assertThat(handle.nextEvent().isReadable()).isTrue();
        }
        AtomicInteger length = new AtomicInteger();
        onLoop(() -> length.set(handler.get().currentEventArrayLength()));
        assertThat(length.get()).isGreaterThan(4);
    }

    @Test
    void handleThatThrowsDoesNotStopTheLoop() throws Exception {
        start();
        Socket[] pair = pair();
        CountDownLatch heard = new CountDownLatch(1);
        register(new EpollIoHandle() {
            @Override
            public io.weir.channel.unix.FileDescriptor fd() {
                return pair[1];
            }

            @Override
            public void handle(IoRegistration registration, IoEvent event) {
                heard.countDown();
                throw new IllegalStateException("handler bug");
            }

            @Override
            public void close() throws IOException {
                pair[1].close();
            }
        }, EpollIoOps.EPOLLIN);
        SocketHandle.write(pair[0], "x");
        assertThat(heard.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        // The loop logged the exception and goes on running tasks.
        AtomicInteger ran = new AtomicInteger();
        onLoop(ran::incrementAndGet);
        assertThat(ran.get()).isEqualTo(1);
    }

    /** A socket handle that notes, on every event, the longest idle poll its handler has been at. */
    private final class PollRecordingHandle implements EpollIoHandle {
        final SocketHandle socket;
        final AtomicLong longestPollNanos = new AtomicLong();

        PollRecordingHandle(SocketHandle socket) {
            this.socket = socket;
        }

        @Override
        public FileDescriptor fd() {
            return socket.fd();
        }

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            longestPollNanos.accumulateAndGet(handler.get().currentIdlePollNanos(), Math::max);
            socket.handle(registration, event);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** Counts runs and remembers the epoll handler it wraps. */
    private final class CountingIoHandler implements IoHandler {
        private final EpollIoHandler delegate;

        CountingIoHandler(EpollIoHandler delegate) {
            this.delegate = delegate;
            handler.set(delegate);
        }

        @Override
        public void initialize() {
            delegate.initialize();
        }

        @Override
        public int run(IoHandlerContext context) {
            runs.incrementAndGet();
            return delegate.run(context);
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
