package io.weir.channel.kqueue;

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
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.util.Objects;

/**
 * The kqueue {@link IoHandler} of macOS and the BSDs (and of Linux through libkqueue): one kqueue per event loop,
 * keeping the read and write filters of {@link KQueueIoHandle}s.
 *
 * <pre>{@code
 * EventLoopGroup group = new MultiThreadIoEventLoopGroup(0, KQueueIoHandler.newFactory());
 * IoRegistration registration = group.next().register(handle).get();
 * registration.submit(KQueueIoOps.READ);   // on the loop: the handle now hears KQueueIoEvents when readable
 * }</pre>
 *
 * <p><b>Waiting.</b> A run waits without blocking when the loop has tasks queued or a scheduled task is due;
 * otherwise it blocks in {@code kevent} until the next scheduled task's deadline, passed as {@code kevent}'s own
 * timeout ({@code struct timespec}, nanoseconds: a task due in 50 µs is not rounded up to a millisecond). Three
 * things end the wait: a filter firing, the <em>wake-up user event</em>, or the timeout. Every fired filter then
 * reaches its handle as one {@link KQueueIoEvent}; when a wait fills the event array, the array doubles (up to
 * {@value #MAX_EVENT_ARRAY_LENGTH} events) so the next wait collects more at once.
 *
 * <p><b>Idle polling (off unless asked for).</b> As for epoll: a handler created with a positive
 * {@code maxIdlePollNanos} ({@link #newFactory(int, long)}, or {@code io.weir.kqueue.maxIdlePollNanos} for every
 * factory that does not say) whose recent sleeps I/O ended within a millisecond first polls with a zero timeout
 * for a while before it blocks. It costs a server whose requests arrive a little closer together than the poll
 * the whole gap between them in CPU, so the default is 0; {@value #CONVERSATION_IDLE_POLL_NANOS} ns suits a loop
 * that talks to nearby peers and has a core to spare. See {@link IdlePoll} for the rule. A scheduled task's
 * deadline cuts a poll short.
 *
 * <p><b>Wake-ups: an {@code EVFILT_USER} event and the simple race.</b> The loop never wakes itself; other
 * threads call {@link #wakeup()} after queueing a task. A flag is armed just before the loop looks at its task
 * queue for the last time (in {@link IoHandlerContext#canBlock()}); a waker triggers the user event
 * ({@code NOTE_TRIGGER}) only if it is the one that consumes the flag, so a burst of submissions costs one
 * {@code kevent} call per blocking wait, and a loop that decided not to block costs none. The user event is added
 * with {@code EV_CLEAR}, so reporting it resets it: nothing to drain.
 *
 * <p><b>Triggering.</b> Always edge-triggered ({@code EV_CLEAR}); see {@link KQueueIoOps}.
 *
 * <p><b>Descriptors closed before their registration is cancelled.</b> A BSD kernel drops a descriptor's filters
 * when it is closed; libkqueue cannot notice a close and keeps them (its BUGS.md). So the handler deletes the
 * filters of a cancelled registration whether or not its descriptor is still open (a kernel answers
 * {@code ENOENT}, which is ignored), and on libkqueue, before adding a descriptor number, it deletes whatever an
 * earlier owner of that number may have left behind. A stale event may reach the new handle meanwhile, which readiness semantics
 * allow.
 *
 * <p><b>Threads.</b> Every method but {@link #wakeup()} runs on the event loop; registrations may be cancelled
 * from any thread. {@link #prepareToDestroy()} and {@link #destroy()} close every handle still registered;
 * {@link #destroy()} then closes the kqueue.
 */
public final class KQueueIoHandler extends UnixIoHandler<KQueueIoHandle> {
    /** Events one {@code kevent} collects at first (the array grows when a wait fills it). */
    public static final int DEFAULT_EVENT_ARRAY_LENGTH = 512;
    /** The most events one {@code kevent} collects, however often the array filled. */
    public static final int MAX_EVENT_ARRAY_LENGTH = 1 << 16;
    /**
     * Default for {@code io.weir.kqueue.maxIdlePollNanos}, the longest an idle handler polls for readiness before
     * it blocks (see the class comment), in nanoseconds: 0, polling off, as for epoll.
     */
    public static final long DEFAULT_MAX_IDLE_POLL_NANOS = 0;
    /** A maximum idle poll for a loop in a conversation with nearby peers; the same as epoll's. */
    public static final long CONVERSATION_IDLE_POLL_NANOS = 50_000;
    static final long MAX_IDLE_POLL_NANOS =
            Math.max(0, SystemProperties.getLong("io.weir.kqueue.maxIdlePollNanos", DEFAULT_MAX_IDLE_POLL_NANOS));

    /** The user event's identifier; user events have their own namespace, apart from descriptors. */
    static final int WAKEUP_IDENT = 0;
    static final short EVFILT_USER = (short) Native.evfiltUser();

    /**
     * Whether kqueue is libkqueue's emulation, whose differences from a kernel the handler works around: deleting
     * one filter of a descriptor must be followed by deleting and re-adding the other (the descriptor's epoll entry
     * otherwise loses {@code EPOLLET}, see {@link #modify}), and a number must be cleared of filters an earlier
     * owner closed without deleting before it is registered (a kernel drops them on close).
     */
    static final boolean EMULATED = Native.isLibKQueue() != 0;

    private static final LoopLogger LOGGER = LoopLogger.of(KQueueIoHandler.class);
    private static final long WAIT_FOREVER = -1;
    private static final short EV_ADD_CLEAR = Native.EV_ADD | Native.EV_CLEAR | Native.EV_ENABLE;

    /*
     * struct kevent (64-bit macOS, FreeBSD < 12 and libkqueue: 32 bytes; FreeBSD 12+ adds ext[4]: 64 bytes)
     *   0               8        10       12        16              24              32
     *   +---------------+--------+--------+---------+---------------+---------------+
     *   | ident         | filter | flags  | fflags  | data          | udata         |
     *   | uintptr_t     | short  | ushort | uint    | intptr_t      | void*         |
     *   +---------------+--------+--------+---------+---------------+---------------+
     * Size and offsets come from the C compiler (sizeof/offsetof), not from this comment.
     */
    private final int identOffset = Native.offsetofKEventIdent();
    private final int filterOffset = Native.offsetofKEventFilter();
    private final int flagsOffset = Native.offsetofKEventFlags();
    private final int fflagsOffset = Native.offsetofKEventFFlags();

    private final FileDescriptor kqueueFd;
    // A plain copy of the number, for the wait and the wake-up.
    private final int kq;

    // Loop thread only: wake-ups seen (user events collected), for tests.
    private long wakeupsSeen;

    private KQueueIoHandler(EventLoop loop, int eventArrayLength, long maxIdlePollNanos) {
        super(loop, maxIdlePollNanos, KQueueIoHandle.class, KQueueIoOps.class, KQueueIoOps.NONE, eventBytes(),
                eventArrayLength, MAX_EVENT_ARRAY_LENGTH);
        int fd = Native.kqueueCreate();
        if (fd < 0) {
            throw new UncheckedIOException("failed to set up a kqueue I/O handler",
                    Errors.newIoException("kqueue", fd));
        }
        FileDescriptor kqueue = new FileDescriptor(fd);
        int res = Native.keventChange(fd, WAKEUP_IDENT, EVFILT_USER, EV_ADD_CLEAR, 0);
        if (res < 0) {
            closeQuietly(kqueue);
            throw new UncheckedIOException("failed to set up a kqueue I/O handler",
                    Errors.newIoException("kevent(EVFILT_USER, EV_ADD)", res));
        }
        this.kqueueFd = kqueue;
        this.kq = fd;
    }

    /** The size of a {@code struct kevent}, once the library is known to be loaded. */
    private static int eventBytes() {
        KQueue.ensureAvailability();
        return Native.sizeofKEvent();
    }

    /**
     * A factory of handlers whose event array starts at {@value #DEFAULT_EVENT_ARRAY_LENGTH} events.
     *
     * @throws UnsatisfiedLinkError when a handler is created if {@link KQueue#isAvailable()} is false
     */
    public static IoHandlerFactory newFactory() {
        return newFactory(DEFAULT_EVENT_ARRAY_LENGTH);
    }

    /**
     * A factory of handlers whose event array starts at {@code eventArrayLength} events, with the idle poll that
     * {@code io.weir.kqueue.maxIdlePollNanos} sets (off by default). Each handler opens its kqueue when it is
     * created; failing that, {@link IoHandlerFactory#newHandler} throws an {@link UncheckedIOException}, or an
     * {@link UnsatisfiedLinkError} if kqueue is not {@linkplain KQueue#isAvailable() available}.
     *
     * @throws IllegalArgumentException if {@code eventArrayLength} is outside 1-{@value #MAX_EVENT_ARRAY_LENGTH}
     */
    public static IoHandlerFactory newFactory(int eventArrayLength) {
        return newFactory(eventArrayLength, MAX_IDLE_POLL_NANOS);
    }

    /**
     * A factory of handlers whose event array starts at {@code eventArrayLength} events and whose idle poll lasts
     * up to {@code maxIdlePollNanos} (0: off; see the class comment).
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
        return loop -> new KQueueIoHandler(Objects.requireNonNull(loop, "loop"), eventArrayLength, maxIdlePollNanos);
    }

    // ---------------------------------------------------------------- run

    private int keventWait(long timeoutNanos) {
        int res = Native.keventWait(kq, events.memoryAddress(), events.length(), timeoutNanos);
        if (res >= 0) {
            return res;
        }
        if (res != -Errors.EINTR) {
            LOGGER.log(Level.WARNING, "kevent failed with errno ", -res, null, null);
        }
        return 0;
    }

    /** How long this handler, once idle, now polls before it blocks (see the class comment). Loop thread only. */
    long currentIdlePollNanos() {
        return idlePollNanos();
    }

    @Override
    protected int waitNow() {
        return keventWait(0);
    }

    /** Blocks in {@code kevent} with the deadline as its timeout (nanoseconds, not rounded to milliseconds). */
    @Override
    protected int waitBlocking(long nowNanos, long delayNanos) {
        return keventWait(delayNanos == Long.MAX_VALUE ? WAIT_FOREVER : delayNanos);
    }

    @Override
    protected int processReady(int ready) {
        NativeEventArray array = events;
        int handled = 0;
        for (int i = 0; i < ready; i++) {
            short filter = array.getShort(i, filterOffset);
            if (filter == EVFILT_USER) {
                wakeupsSeen++;
                continue;
            }
            if (filter != Native.EVFILT_READ && filter != Native.EVFILT_WRITE) {
                continue;
            }
            long ident = array.getLong(i, identOffset);
            // Identifiers above Integer.MAX_VALUE are never a descriptor.
            UnixRegistration registration = ident > Integer.MAX_VALUE ? null : registration((int) ident);
            // Absent or cancelled: cancelled earlier in this pass, or by another thread.
            if (registration == null) {
                continue;
            }
            dispatch(registration, KQueueIoEvent.of(filter, array.getShort(i, flagsOffset) & 0xFFFF,
                    array.getInt(i, fflagsOffset)));
            handled++;
        }
        return handled;
    }

    /** Triggers the user event, which ends a blocking {@code kevent} (see {@link PollingWait#wakeup()}). */
    @Override
    protected void signalWakeup() {
        Native.keventChange(kq, WAKEUP_IDENT, EVFILT_USER, (short) 0, Native.NOTE_TRIGGER);
    }

    // ---------------------------------------------------------------- registrations

    @Override
    protected FileDescriptor fdOf(KQueueIoHandle handle) {
        return handle.fd();
    }

    /**
     * Keeps no filter for the descriptor yet ({@link KQueueIoOps#NONE}); {@link io.weir.channel.IoRegistration#submit}
     * adds them. On libkqueue, whatever a previous owner of the number closed without cancelling is deleted first.
     */
    @Override
    protected void add(int number) {
        if (EMULATED) {
            deleteFilters(number, KQueueIoOps.READ.with(KQueueIoOps.WRITE));
        }
    }

    /** Deletes the filters {@code old} has and {@code ops} lacks, then adds the reverse; loop thread. */
    @Override
    protected void modify(UnixRegistration registration, IoOps oldOps, IoOps newOps) {
        KQueueIoOps old = (KQueueIoOps) oldOps;
        KQueueIoOps ops = (KQueueIoOps) newOps;
        int number = registration.fd().intValue();
        int added = ops.value() & ~old.value();
        int removed = old.value() & ~ops.value();
        if (EMULATED && removed != 0 && (old.value() & ops.value()) != 0) {
            // libkqueue re-registers the descriptor's epoll entry for the surviving filter without EPOLLET when
            // the other is deleted, turning it level-triggered: delete it too and add it afresh.
            added = ops.value();
            removed = old.value();
        }
        // Deletions first: on libkqueue an addition made before them would lose EPOLLET to them. The registration
        // records each step, so a failure leaves it saying what the kqueue holds.
        KQueueIoOps held = old;
        if ((removed & KQueueIoOps.READ_BIT) != 0) {
            change(registration, number, Native.EVFILT_READ, Native.EV_DELETE, "kevent(EVFILT_READ, EV_DELETE)");
            registration.ops(held = held.without(KQueueIoOps.READ));
        }
        if ((removed & KQueueIoOps.WRITE_BIT) != 0) {
            change(registration, number, Native.EVFILT_WRITE, Native.EV_DELETE, "kevent(EVFILT_WRITE, EV_DELETE)");
            registration.ops(held = held.without(KQueueIoOps.WRITE));
        }
        if ((added & KQueueIoOps.READ_BIT) != 0) {
            change(registration, number, Native.EVFILT_READ, EV_ADD_CLEAR, "kevent(EVFILT_READ, EV_ADD)");
            registration.ops(held = held.with(KQueueIoOps.READ));
        }
        if ((added & KQueueIoOps.WRITE_BIT) != 0) {
            change(registration, number, Native.EVFILT_WRITE, EV_ADD_CLEAR, "kevent(EVFILT_WRITE, EV_ADD)");
            registration.ops(held.with(KQueueIoOps.WRITE));
        }
    }

    private void change(UnixRegistration registration, int number, short filter, short flags, String what) {
        int res = Native.keventChange(kq, number, filter, flags, 0);
        if (res < 0) {
            if (!registration.fd().isOpen()) {
                throw new IllegalStateException("descriptor closed: " + registration.fd());
            }
            throw new UncheckedIOException(Errors.newIoException(what, res));
        }
    }

    /** Deletes the filters of {@code ops} for {@code number}, ignoring ENOENT and EBADF (gone already). */
    private void deleteFilters(int number, KQueueIoOps ops) {
        if (ops.contains(KQueueIoOps.READ)) {
            Native.keventChange(kq, number, Native.EVFILT_READ, Native.EV_DELETE, 0);
        }
        if (ops.contains(KQueueIoOps.WRITE)) {
            Native.keventChange(kq, number, Native.EVFILT_WRITE, Native.EV_DELETE, 0);
        }
    }

    /** Deletes the filters even of a closed descriptor: libkqueue kept them (a kernel answers ENOENT). */
    @Override
    protected void remove(UnixRegistration registration) {
        deleteFilters(registration.fd().intValue(), (KQueueIoOps) registration.ops());
    }

    @Override
    protected long bits(IoOps ops) {
        return ((KQueueIoOps) ops).value();
    }

    /** Closes the kqueue. */
    @Override
    protected void closeDescriptors() {
        closeQuietly(kqueueFd);
    }

    /** The current length of the event array. Loop thread; for tests. */
    int currentEventArrayLength() {
        return eventArrayLength();
    }

    /** How many wake-up user events the loop has collected. Loop thread; for tests. */
    long wakeupsSeen() {
        return wakeupsSeen;
    }

    @Override
    public String toString() {
        return "KQueueIoHandler(kq=" + kq + ", " + registrationCount() + " registrations)";
    }
}
