package io.weir.channel.epoll;

import io.weir.channel.EventLoop;
import io.weir.channel.internal.IdlePoll;
import io.weir.channel.internal.PollingWait;
import io.weir.channel.IoHandle;
import io.weir.channel.IoHandler;
import io.weir.channel.IoHandlerContext;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.IoRegistration;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.FileDescriptor;
import io.weir.util.collection.IntObjectHashMap;
import io.weir.util.platform.LoopLogger;
import io.weir.util.platform.SystemProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.channels.ClosedChannelException;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The Linux epoll {@link IoHandler}: one epoll descriptor per event loop, watching {@link EpollIoHandle}s.
 *
 * <pre>{@code
 * EventLoopGroup group = new MultiThreadIoEventLoopGroup(0, EpollIoHandler.newFactory());
 * IoRegistration registration = group.next().register(handle).get();
 * registration.submit(EpollIoOps.EPOLLIN);   // on the loop: the handle now hears EpollIoEvents when readable
 * }</pre>
 *
 * <p><b>Waiting.</b> A run waits without blocking when the loop has tasks queued or a scheduled task is due;
 * otherwise it blocks in {@code epoll_wait} with no timeout, and three things end the wait: readiness of a
 * handle, the <em>wake-up eventfd</em>, or the <em>deadline timerfd</em>. Every ready handle then receives one
 * {@link EpollIoEvent} through its registration; when a wait fills the event array, the array doubles (up to
 * {@value #MAX_EVENT_ARRAY_LENGTH} events) so the next wait collects more at once.
 *
 * <p><b>Idle polling (off unless asked for).</b> A handler created with a positive {@code maxIdlePollNanos}
 * ({@link #newFactory(int, long)}, or {@code io.weir.epoll.maxIdlePollNanos} for every factory that does not say)
 * polls with {@code epoll_wait(0)} for a while before it blocks, once its recent sleeps I/O ended within a
 * millisecond (a loop in a conversation with a peer that answers quickly). The answer then finds the thread
 * awake, which spares the sleep, the wake-up and, on virtual machines whose idle CPUs halt, a wake-up latency
 * that can exceed the round trip itself many times. The price is CPU: a server whose requests arrive a little
 * closer together than the poll never sleeps, and spends the whole gap between requests polling. That is why the
 * default is 0 (block at once, as Netty's default select strategy does); {@value #CONVERSATION_IDLE_POLL_NANOS}
 * ns suits a client or proxy loop that talks to nearby peers and has a core to spare. A loop whose I/O arrives
 * further apart than the poll, or whose sleeps timers and tasks end, does not poll; see {@link IdlePoll} for the
 * rule. A scheduled task's deadline cuts a poll short.
 *
 * <p><b>Scheduled tasks: a timerfd.</b> The next scheduled task's deadline is armed on a {@code timerfd}
 * ({@code CLOCK_MONOTONIC}, nanosecond resolution, the clock of {@link System#nanoTime()}), and re-armed only
 * when that deadline changes, so the common case costs no system call. Chosen over {@code epoll_wait}'s
 * millisecond timeout because a task due in 50 µs then runs after about 50 µs, not after a whole rounded-up
 * millisecond, and because a loop that is woken often does not recompute and pass a timeout on every wait.
 *
 * <p><b>Wake-ups: an eventfd and the simple race.</b> The loop never wakes itself; other threads call
 * {@link #wakeup()} after queueing a task. A flag is armed just before the loop looks at its task queue for the
 * last time (in {@link IoHandlerContext#canBlock()}); a waker writes the eventfd only if it is the one that
 * consumes the flag, so a burst of submissions costs one {@code write(2)}, and a loop that decided not to block
 * costs none. Either the loop's re-check after arming sees the new task, or the waker sees the armed flag and
 * the write ends the wait. The eventfd is drained when it fires.
 *
 * <p><b>Triggering.</b> Edge-triggered unless the submitted {@link EpollIoOps} contain
 * {@link EpollIoOps#LEVEL_TRIGGERED}.
 *
 * <p><b>Threads.</b> Every method but {@link #wakeup()} runs on the event loop; registrations may be cancelled
 * from any thread. A registration whose descriptor was closed without being cancelled stays in the handler's
 * table (the kernel has already dropped it from the epoll set) until its number is registered again or the
 * handler is destroyed; a stale event may then reach the new handle, which readiness semantics allow.
 * {@link #prepareToDestroy()} and {@link #destroy()} close every handle still registered; {@link #destroy()}
 * then closes the epoll descriptor, the eventfd and the timerfd.
 */
public final class EpollIoHandler implements IoHandler {
    /** Events one {@code epoll_wait} collects at first (the array grows when a wait fills it). */
    public static final int DEFAULT_EVENT_ARRAY_LENGTH = 512;
    /** The most events one {@code epoll_wait} collects, however often the array filled. */
    public static final int MAX_EVENT_ARRAY_LENGTH = 1 << 16;
    /**
     * Default for {@code io.weir.epoll.maxIdlePollNanos}, the longest an idle handler polls for readiness before
     * it blocks (see the class comment), in nanoseconds: 0, polling off.
     */
    public static final long DEFAULT_MAX_IDLE_POLL_NANOS = 0;
    /**
     * A maximum idle poll for a loop in a conversation with nearby peers: longer than a loopback round trip
     * between two loops on a slow virtual machine, short enough that a loop whose peer has gone quiet wastes
     * little before it sleeps. The benchmarks' {@code _idlePoll} rows use it.
     */
    public static final long CONVERSATION_IDLE_POLL_NANOS = 50_000;
    static final long MAX_IDLE_POLL_NANOS =
            Math.max(0, SystemProperties.getLong("io.weir.epoll.maxIdlePollNanos", DEFAULT_MAX_IDLE_POLL_NANOS));

    private static final LoopLogger LOGGER = LoopLogger.of(EpollIoHandler.class);
    private static final long NO_DEADLINE = Long.MIN_VALUE;
    private static final int WAIT_FOREVER = -1;
    private static final long NANOS_PER_MILLI = 1_000_000;

    private static final AtomicIntegerFieldUpdater<EpollIoHandler> REGISTRATIONS =
            AtomicIntegerFieldUpdater.newUpdater(EpollIoHandler.class, "registrations");

    private final EventLoop loop;
    private final PollingWait pollingWait;
    private final FileDescriptor epollFd;
    private final FileDescriptor eventFd;
    private final FileDescriptor timerFd;
    // Plain copies of the three numbers, for the dispatch loop.
    private final int epfd;
    private final int eventFdNumber;
    private final int timerFdNumber;
    private final EpollEventArray events;
    // Loop thread only: descriptor number -> its live registration.
    private final IntObjectHashMap<EpollRegistration> registrationsByFd = new IntObjectHashMap<>();

    // Loop thread only: the deadline (ticker time) the timerfd is armed for, or NO_DEADLINE.
    private long armedDeadlineNanos = NO_DEADLINE;
    private boolean destroyed;
    private volatile int registrations;

    private EpollIoHandler(EventLoop loop, int eventArrayLength, long maxIdlePollNanos) {
        Epoll.ensureAvailability();
        this.loop = loop;
        this.pollingWait = new PollingWait(loop, maxIdlePollNanos, new SystemCalls());
        this.events = new EpollEventArray(eventArrayLength, MAX_EVENT_ARRAY_LENGTH);
        FileDescriptor ep = null;
        FileDescriptor ev = null;
        FileDescriptor timer = null;
        try {
            ep = open("epoll_create1", Native.epollCreate());
            ev = open("eventfd", Native.eventFd());
            timer = open("timerfd_create", Native.timerFdCreate());
            // Both level-triggered: each is drained when it fires, and must fire again if it was not.
            add(ep.intValue(), ev.intValue(), EpollIoOps.IN_BIT);
            add(ep.intValue(), timer.intValue(), EpollIoOps.IN_BIT);
        } catch (IOException e) {
            closeQuietly(timer);
            closeQuietly(ev);
            closeQuietly(ep);
            throw new UncheckedIOException("failed to set up an epoll I/O handler", e);
        }
        this.epollFd = ep;
        this.eventFd = ev;
        this.timerFd = timer;
        this.epfd = ep.intValue();
        this.eventFdNumber = ev.intValue();
        this.timerFdNumber = timer.intValue();
    }

    private static FileDescriptor open(String operation, int result) throws IOException {
        if (result < 0) {
            throw Errors.newIoException(operation, result);
        }
        return new FileDescriptor(result);
    }

    private static void add(int epfd, int fd, int events) throws IOException {
        int res = Native.epollCtl(epfd, Native.EPOLL_CTL_ADD, fd, events);
        if (res < 0) {
            throw Errors.newIoException("epoll_ctl(EPOLL_CTL_ADD)", res);
        }
    }

    /**
     * A factory of handlers whose event array starts at {@value #DEFAULT_EVENT_ARRAY_LENGTH} events.
     *
     * @throws UnsatisfiedLinkError when a handler is created if {@link Epoll#isAvailable()} is false
     */
    public static IoHandlerFactory newFactory() {
        return newFactory(DEFAULT_EVENT_ARRAY_LENGTH);
    }

    /**
     * A factory of handlers whose event array starts at {@code eventArrayLength} events, with the idle poll that
     * {@code io.weir.epoll.maxIdlePollNanos} sets (off by default). Each handler opens its descriptors when it is
     * created; failing that, {@link IoHandlerFactory#newHandler} throws an {@link UncheckedIOException}, or an
     * {@link UnsatisfiedLinkError} if epoll is not {@linkplain Epoll#isAvailable() available}.
     *
     * @throws IllegalArgumentException if {@code eventArrayLength} is outside 1-{@value #MAX_EVENT_ARRAY_LENGTH}
     */
    public static IoHandlerFactory newFactory(int eventArrayLength) {
        return newFactory(eventArrayLength, MAX_IDLE_POLL_NANOS);
    }

    /**
     * A factory of handlers whose event array starts at {@code eventArrayLength} events and whose idle poll lasts
     * up to {@code maxIdlePollNanos} (0: off; see the class comment for what polling buys and costs, and
     * {@link #CONVERSATION_IDLE_POLL_NANOS} for a value that suits a loop talking to nearby peers).
     *
     * @throws IllegalArgumentException if {@code eventArrayLength} is outside 1-{@value #MAX_EVENT_ARRAY_LENGTH}
     *         or {@code maxIdlePollNanos} is negative
     */
    public static IoHandlerFactory newFactory(int eventArrayLength, long maxIdlePollNanos) {
        if (eventArrayLength < 1 || eventArrayLength > MAX_EVENT_ARRAY_LENGTH) {
            throw new IllegalArgumentException("eventArrayLength: " + eventArrayLength + " (expected: 1-"
                    + MAX_EVENT_ARRAY_LENGTH + ')');
        }
        IdlePoll.checkMaxNanos(maxIdlePollNanos);
        return loop -> new EpollIoHandler(Objects.requireNonNull(loop, "loop"), eventArrayLength, maxIdlePollNanos);
    }

    // ---------------------------------------------------------------- run

    /**
     * Points the timerfd at the next deadline, unless it points there already.
     *
     * @return {@code false} if the timer could not be set, so the wait must carry its own timeout
     */
    private boolean armTimer(long nowNanos, long delayNanos) {
        long deadline = delayNanos == Long.MAX_VALUE ? NO_DEADLINE : nowNanos + delayNanos;
        if (deadline == armedDeadlineNanos) {
            return true;
        }
        int res = Native.timerFdSetTime(timerFdNumber, deadline == NO_DEADLINE ? 0 : delayNanos);
        if (res < 0) {
            LOGGER.log(Level.WARNING, "timerfd_settime failed on " + this + "; waiting with a timeout instead: "
                    + Errors.newIoException("timerfd_settime", res).getMessage());
            armedDeadlineNanos = NO_DEADLINE;
            return false;
        }
        armedDeadlineNanos = deadline;
        return true;
    }

    /** {@code epoll_wait}'s own timeout for {@code delayNanos}: rounded up, so a task never runs early. */
    private static int fallbackTimeoutMillis(long delayNanos) {
        if (delayNanos == Long.MAX_VALUE) {
            return WAIT_FOREVER;
        }
        long millis = delayNanos / NANOS_PER_MILLI + (delayNanos % NANOS_PER_MILLI == 0 ? 0 : 1);
        return (int) Math.min(millis, Integer.MAX_VALUE);
    }

    private int epollWait(int timeoutMillis) {
        int res = Native.epollWait(epfd, events.memoryAddress(), events.length(), timeoutMillis);
        if (res >= 0) {
            return res;
        }
        if (res != -Errors.EINTR) {
            LOGGER.log(Level.WARNING, "epoll_wait failed with errno ", -res, null, null);
        }
        return 0;
    }

    @Override
    public int run(IoHandlerContext context) {
        return pollingWait.run(context);
    }

    /**
     * Ends the current or next blocking wait, at most once per wait however often it is called. Any thread; after
     * the handler is destroyed it does nothing (the loop no longer arms the flag).
     */
    @Override
    public void wakeup() {
        pollingWait.wakeup();
    }

    /**
     * How long this handler, once idle, now polls for readiness before it blocks, in nanoseconds (see the class
     * comment); 0 if it blocks at once. Loop thread only.
     */
    long idlePollNanos() {
        return pollingWait.idlePollNanos();
    }

    /** This handler's system calls, for its {@link PollingWait}. */
    private final class SystemCalls implements PollingWait.Waits {
        @Override
        public int waitNow() {
            return epollWait(0);
        }

        /** Blocks in {@code epoll_wait} without a timeout, the deadline armed on the timerfd. */
        @Override
        public int waitBlocking(long nowNanos, long delayNanos) {
            boolean timerArmed = armTimer(nowNanos, delayNanos);
            return epollWait(timerArmed ? WAIT_FOREVER : fallbackTimeoutMillis(delayNanos));
        }

        @Override
        public int processReady(int ready) {
            EpollEventArray array = events;
            int handled = 0;
            for (int i = 0; i < ready; i++) {
                int fd = array.fd(i);
                if (fd == eventFdNumber) {
                    Native.eventFdRead(fd);
                    continue;
                }
                if (fd == timerFdNumber) {
                    Native.timerFdRead(fd);
                    armedDeadlineNanos = NO_DEADLINE;
                    continue;
                }
                EpollRegistration registration = registrationsByFd.get(fd);
                // Absent or cancelled: cancelled earlier in this pass, or by another thread.
                if (registration == null || registration.isCancelled()) {
                    continue;
                }
                int ev = array.events(i);
                try {
                    registration.handle.handle(registration, EpollIoEvent.of(ev));
                } catch (Throwable t) {
                    LOGGER.log(Level.WARNING, "Unexpected exception from ", registration.handle,
                            " handling " + EpollIoOps.describe(ev & EpollIoOps.KERNEL_BITS), t);
                }
                handled++;
            }
            return handled;
        }

        @Override
        public void afterProcessing(int ready) {
            if (ready == events.length() && events.increase() && LOGGER.isLoggable(Level.DEBUG)) {
                LOGGER.log(Level.DEBUG,
                        "epoll event array of " + EpollIoHandler.this + " grew to " + events.length());
            }
        }

        /** Writes the eventfd, which ends a blocking {@code epoll_wait} (see {@link PollingWait#wakeup()}). */
        @Override
        public void signalWakeup() {
            Native.eventFdWrite(eventFdNumber, 1L);
        }
    }

    // ---------------------------------------------------------------- registrations

    /**
     * {@inheritDoc}
     *
     * <p>Adds the handle's descriptor to the epoll set watching nothing ({@link EpollIoOps#NONE}, edge-triggered);
     * {@link IoRegistration#submit} chooses the events.
     *
     * @throws IllegalArgumentException if {@code handle} is not an {@link EpollIoHandle}
     * @throws IllegalStateException if the descriptor is already registered with this handler
     * @throws ClosedChannelException if the descriptor is closed
     * @throws io.weir.channel.unix.NativeIoException if {@code epoll_ctl} refused it
     */
    @Override
    public IoRegistration register(IoHandle handle) throws IOException {
        if (!(handle instanceof EpollIoHandle)) {
            throw new IllegalArgumentException("incompatible handle: "
                    + (handle == null ? "null" : handle.getClass().getName())
                    + " (expected: " + EpollIoHandle.class.getName() + ')');
        }
        EpollIoHandle epollHandle = (EpollIoHandle) handle;
        FileDescriptor fd = Objects.requireNonNull(epollHandle.fd(), "fd()");
        if (!fd.isOpen()) {
            throw new ClosedChannelException();
        }
        int number = fd.intValue();
        EpollRegistration existing = registrationsByFd.get(number);
        if (existing != null) {
            if (existing.isCancelled()) {
                // Cancelled from another thread; its deregistration task has not run yet.
                deregister0(existing);
            } else if (existing.fd.isOpen()) {
                throw new IllegalStateException("descriptor " + number + " already registered with this handler by "
                        + existing.handle);
            } else {
                // The old owner closed the number without cancelling; the kernel dropped it from the set already.
                registrationsByFd.remove(number);
                if (existing.markCancelled()) {
                    closeQuietly(existing.handle);
                }
            }
        }
        add(epfd, number, EpollIoOps.NONE.kernelEvents());
        EpollRegistration registration = new EpollRegistration(this, epollHandle, fd);
        registrationsByFd.put(number, registration);
        REGISTRATIONS.incrementAndGet(this);
        return registration;
    }

    /** {@code epoll_ctl(MOD)} for a submit; loop thread. */
    void modify(EpollRegistration registration, EpollIoOps ops) {
        int res = Native.epollCtl(epfd, Native.EPOLL_CTL_MOD, registration.fd.intValue(), ops.kernelEvents());
        if (res < 0) {
            if (!registration.fd.isOpen()) {
                throw new IllegalStateException("descriptor closed: " + registration.fd);
            }
            throw new UncheckedIOException(Errors.newIoException("epoll_ctl(EPOLL_CTL_MOD)", res));
        }
    }

    /** Removes a cancelled registration from the set and the table: now on the loop, through a task otherwise. */
    void deregister(EpollRegistration registration) {
        if (loop.inEventLoop()) {
            deregister0(registration);
            return;
        }
        try {
            loop.execute(() -> deregister0(registration));
        } catch (RejectedExecutionException e) {
            // The loop is shutting down: destroy() drops the whole epoll set.
            LOGGER.log(Level.DEBUG, "could not deregister ", registration, " from a stopping loop", e);
        }
    }

    private void deregister0(EpollRegistration registration) {
        if (destroyed) {
            return;
        }
        int number = registration.fd.intValue();
        if (registrationsByFd.get(number) == registration) {
            registrationsByFd.remove(number);
            if (registration.fd.isOpen()) {
                // ENOENT/EBADF: closed meanwhile, so already gone from the set.
                Native.epollCtl(epfd, Native.EPOLL_CTL_DEL, number, 0);
            }
        }
    }

    void registrationEnded() {
        REGISTRATIONS.decrementAndGet(this);
    }

    /** Closes every handle still registered, so their channels close while the loop still runs tasks. */
    @Override
    public void prepareToDestroy() {
        closeAll();
    }

    /** Closes every handle still registered, then the epoll descriptor, the eventfd and the timerfd. */
    @Override
    public void destroy() {
        if (destroyed) {
            return;
        }
        closeAll();
        destroyed = true;
        registrationsByFd.clear();
        closeQuietly(timerFd);
        closeQuietly(eventFd);
        closeQuietly(epollFd);
    }

    private void closeAll() {
        if (destroyed || registrationsByFd.isEmpty()) {
            return;
        }
        int[] numbers = registrationsByFd.keys();
        for (int i = 0; i < numbers.length; i++) {
            EpollRegistration registration = registrationsByFd.get(numbers[i]);
            if (registration == null) {
                continue;
            }
            closeQuietly(registration.handle);
            // The handle's close usually cancels its registration; make sure it is uncounted and gone either way.
            registration.cancel();
            deregister0(registration);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Throwable t) {
            LOGGER.log(Level.WARNING, "Failed to close ", closeable, t);
        }
    }

    private static void closeQuietly(FileDescriptor fd) {
        if (fd == null) {
            return;
        }
        try {
            fd.close();
        } catch (IOException e) {
            LOGGER.log(Level.WARNING, "Failed to close ", fd, e);
        }
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return EpollIoHandle.class.isAssignableFrom(handleType);
    }

    /** {@inheritDoc} Cancelled registrations and handles the handler closed are not counted. */
    @Override
    public int registrationCount() {
        return registrations;
    }

    /** The current length of the event array. Loop thread; for tests. */
    int eventArrayLength() {
        return events.length();
    }

    @Override
    public String toString() {
        return "EpollIoHandler(epfd=" + epfd + ", " + registrations + " registrations)";
    }
}
