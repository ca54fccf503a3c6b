package io.weir.channel.epoll;

import io.weir.channel.EventLoop;
import io.weir.channel.internal.IdlePoll;
import io.weir.channel.internal.PollingWait;
import io.weir.channel.IoHandler;
import io.weir.channel.IoHandlerContext;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.IoOps;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.FileDescriptor;
import io.weir.channel.unix.internal.NativeEventArray;
import io.weir.channel.unix.internal.UnixIoHandler;
import io.weir.channel.unix.internal.UnixRegistration;
import io.weir.util.platform.LoopLogger;
import io.weir.util.platform.SystemProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.util.Objects;

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
public final class EpollIoHandler extends UnixIoHandler<EpollIoHandle> {
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

    private final FileDescriptor epollFd;
    private final FileDescriptor eventFd;
    private final FileDescriptor timerFd;
    // Plain copies of the three numbers, for the dispatch loop.
    private final int epfd;
    private final int eventFdNumber;
    private final int timerFdNumber;
    /*
     * struct epoll_event (x86_64: packed, 12 bytes; other 64-bit CPUs: 16 bytes)
     *   0         4 (8 unpacked)
     *   +---------+--------------------+
     *   | events  | data (fd in 4 low) |
     *   +---------+--------------------+
     * Size and offset come from the C compiler (sizeof/offsetof), not from this comment.
     */
    private final int dataOffset = Native.offsetofEpollData();

    // Loop thread only: the deadline (ticker time) the timerfd is armed for, or NO_DEADLINE.
    private long armedDeadlineNanos = NO_DEADLINE;

    private EpollIoHandler(EventLoop loop, int eventArrayLength, long maxIdlePollNanos) {
        super(loop, maxIdlePollNanos, EpollIoHandle.class, EpollIoOps.class, EpollIoOps.NONE, eventBytes(),
                eventArrayLength, MAX_EVENT_ARRAY_LENGTH);
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

    /** The size of a {@code struct epoll_event}, once the library is known to be loaded. */
    private static int eventBytes() {
        Epoll.ensureAvailability();
        return Native.sizeofEpollEvent();
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

    /** How long this handler, once idle, now polls before it blocks (see the class comment). Loop thread only. */
    long currentIdlePollNanos() {
        return idlePollNanos();
    }

    @Override
    protected int waitNow() {
        return epollWait(0);
    }

    /** Blocks in {@code epoll_wait} without a timeout, the deadline armed on the timerfd. */
    @Override
    protected int waitBlocking(long nowNanos, long delayNanos) {
        boolean timerArmed = armTimer(nowNanos, delayNanos);
        return epollWait(timerArmed ? WAIT_FOREVER : fallbackTimeoutMillis(delayNanos));
    }

    @Override
    protected int processReady(int ready) {
        NativeEventArray array = events;
        int dataOffset = this.dataOffset;
        int handled = 0;
        for (int i = 0; i < ready; i++) {
            int fd = array.getInt(i, dataOffset);
            if (fd == eventFdNumber) {
                Native.eventFdRead(fd);
                continue;
            }
            if (fd == timerFdNumber) {
                Native.timerFdRead(fd);
                armedDeadlineNanos = NO_DEADLINE;
                continue;
            }
            UnixRegistration registration = registration(fd);
            // Absent or cancelled: cancelled earlier in this pass, or by another thread.
            if (registration == null) {
                continue;
            }
            dispatch(registration, EpollIoEvent.of(array.getInt(i, 0)));
            handled++;
        }
        return handled;
    }

    /** Writes the eventfd, which ends a blocking {@code epoll_wait} (see {@link PollingWait#wakeup()}). */
    @Override
    protected void signalWakeup() {
        Native.eventFdWrite(eventFdNumber, 1L);
    }

    // ---------------------------------------------------------------- registrations

    @Override
    protected FileDescriptor fdOf(EpollIoHandle handle) {
        return handle.fd();
    }

    /** Adds the descriptor to the epoll set watching nothing ({@link EpollIoOps#NONE}, edge-triggered). */
    @Override
    protected void add(int number) throws IOException {
        add(epfd, number, EpollIoOps.NONE.kernelEvents());
    }

    /** {@code epoll_ctl(MOD)} for a submit; loop thread. */
    @Override
    protected void modify(UnixRegistration registration, IoOps old, IoOps ops) {
        FileDescriptor fd = registration.fd();
        int res = Native.epollCtl(epfd, Native.EPOLL_CTL_MOD, fd.intValue(), ((EpollIoOps) ops).kernelEvents());
        if (res < 0) {
            if (!fd.isOpen()) {
                throw new IllegalStateException("descriptor closed: " + fd);
            }
            throw new UncheckedIOException(Errors.newIoException("epoll_ctl(EPOLL_CTL_MOD)", res));
        }
    }

    @Override
    protected void remove(UnixRegistration registration) {
        FileDescriptor fd = registration.fd();
        if (fd.isOpen()) {
            // ENOENT/EBADF: closed meanwhile, so already gone from the set.
            Native.epollCtl(epfd, Native.EPOLL_CTL_DEL, fd.intValue(), 0);
        }
    }

    @Override
    protected long bits(IoOps ops) {
        return ((EpollIoOps) ops).value();
    }

    /** Closes the epoll descriptor, the eventfd and the timerfd. */
    @Override
    protected void closeDescriptors() {
        closeQuietly(timerFd);
        closeQuietly(eventFd);
        closeQuietly(epollFd);
    }

    /** The current length of the event array. Loop thread; for tests. */
    int currentEventArrayLength() {
        return eventArrayLength();
    }

    @Override
    public String toString() {
        return "EpollIoHandler(epfd=" + epfd + ", " + registrationCount() + " registrations)";
    }
}
