package io.weir.channel.uring;

import io.weir.buffer.ByteBufAllocator;
import io.weir.channel.EventLoop;
import io.weir.channel.IoHandle;
import io.weir.channel.IoHandler;
import io.weir.channel.IoHandlerContext;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.IoRegistration;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.FileDescriptor;
import io.weir.util.Ticker;
import io.weir.util.concurrent.AbstractScheduledEventExecutor;
import io.weir.util.platform.DirectMemory;
import io.weir.util.platform.LoopLogger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The Linux io_uring {@link IoHandler}: one ring per event loop, submitting the operations of
 * {@link IoUringIoHandle}s and handing each completion back as an {@link IoUringIoEvent}.
 *
 * <pre>{@code
 * EventLoopGroup group = new MultiThreadIoEventLoopGroup(0, IoUringIoHandler.newFactory());
 * IoRegistration registration = group.next().register(handle).get();
 * long id = registration.submit(IoUringIoOps.newRead(fd, address, length, -1, (short) 0)); // on the loop
 * }</pre>
 *
 * <p><b>One system call per loop turn.</b> {@link IoRegistration#submit} only writes an SQE; each {@link #run}
 * makes one {@code io_uring_enter} that submits everything queued since the last one and collects completions,
 * waiting when the loop may block: until a completion, a wake-up, or the next scheduled task's deadline, passed as
 * the enter's own timeout ({@code IORING_ENTER_EXT_ARG}, nanosecond resolution on the clock of
 * {@link System#nanoTime()}). A submission queue that fills within a turn is submitted early, without waiting.
 *
 * <p><b>The ring.</b> {@value #DEFAULT_RING_ENTRIES} SQEs and {@value #DEFAULT_CQ_ENTRIES} CQEs unless the factory
 * says otherwise; with the best setup flags {@link IoUring} found: {@code SINGLE_ISSUER | DEFER_TASKRUN} (the
 * kernel runs completion work only when this loop enters, instead of interrupting it), else
 * {@code COOP_TASKRUN | TASKRUN_FLAG}, else none. A single-issuer ring is created disabled and enabled by
 * {@link #initialize()} on the loop's thread, which thereby becomes its submitter; the ring descriptor is then
 * registered ({@code IORING_REGISTER_RING_FDS}) where the kernel allows, so an enter skips the descriptor lookup.
 *
 * <p><b>Wake-ups: an eventfd read kept armed on the ring.</b> The loop never wakes itself; other threads call
 * {@link #wakeup()} after queueing a task. A flag is armed just before the loop looks at its task queue for the
 * last time (in {@link IoHandlerContext#canBlock()}); a waker writes the eventfd only if it is the one that
 * consumes the flag, so a burst of submissions costs one {@code write(2)}. Either the loop's re-check sees the new
 * task, or the write completes the pending read and ends the wait. The read is re-armed after each completion.
 *
 * <p><b>Cancellation.</b> Every operation carries its registration's id and its opcode in {@code user_data}
 * ({@link UserData}), and each registration keeps the ids of its operations in flight. Cancelling a registration
 * (from any thread) submits an {@code IORING_OP_ASYNC_CANCEL} for each; their completions still reach the handle,
 * and when the last has arrived the handle hears {@link IoUringIoHandle#unregistered()}, after which nothing of the
 * kernel's refers to memory the handle lent it. A registration's id is reused only then.
 *
 * <p><b>Provided buffers.</b> Unless the factory's {@code bufferCount} is 0 or the kernel lacks them (before
 * Linux 6.3), {@link #initialize()} registers provided buffer rings ({@code IORING_REGISTER_PBUF_RING}) which the
 * stream channels' multishot receives fill (see {@link IoUringSocketChannel}): by default one of
 * {@value #DEFAULT_BUFFER_COUNT} small buffers of {@value #DEFAULT_BUFFER_SIZE_BYTES} bytes and one of
 * {@value #DEFAULT_LARGE_BUFFER_COUNT} large buffers of {@value #DEFAULT_LARGE_BUFFER_SIZE_BYTES} bytes. A channel
 * receives into small buffers and moves to the large ones after {@value #FULL_READS_TO_GROW} reads in a row that
 * filled a small buffer (a bulk transfer), and back after {@value #SMALL_READS_TO_SHRINK} reads in a row that would
 * have fit in one (see {@link AbstractIoUringStreamChannel}), so a connection of small messages never ties up a
 * large buffer and a bulk transfer takes a sixteenth of the completions. The rings together take at most an eighth
 * of the direct memory limit ({@code -XX:MaxDirectMemorySize}): the small ring first, with fewer buffers under a
 * small limit (a power of two, logged once) or none below {@value #MIN_RING_BUFFERS}; the large ring gets what is
 * left of the eighth, or is left out below {@value #MIN_LARGE_RING_BUFFERS} buffers. Each loop turn re-arms
 * receives that found a ring empty. The rings are unregistered and their buffers freed by {@link #destroy()}, after
 * the drain; buffers already handed to pipelines are ordinary buffers their holders release, before or after the
 * loop is gone.
 *
 * <p><b>Shutdown.</b> {@link #prepareToDestroy()} cancels every registration and the wake-up read, and drains the
 * ring until every operation has completed (at most {@value #SHUTDOWN_DRAIN_TIMEOUT_MILLIS} ms), then closes the
 * handles that were still registered. {@link #destroy()} closes the eventfd and the ring. Operations that did not
 * complete in time are logged, their handles never hear {@link IoUringIoHandle#unregistered()}, and the memory the
 * handler itself lent the kernel is kept reachable for the life of the JVM: a leak, never a write into freed
 * memory.
 *
 * <p><b>Threads.</b> Every method but {@link #wakeup()} runs on the event loop; registrations may be cancelled
 * from any thread.
 */
public final class IoUringIoHandler implements IoHandler, CompletionQueue.Completions {
    /** SQEs in a ring unless the factory says otherwise. */
    public static final int DEFAULT_RING_ENTRIES = 512;
    /** CQEs in a ring unless the factory says otherwise: room for multishot operations' many completions. */
    public static final int DEFAULT_CQ_ENTRIES = 4096;
    /** The kernel's limit on SQEs ({@code IORING_MAX_ENTRIES}). */
    public static final int MAX_RING_ENTRIES = 32768;
    /** The kernel's limit on CQEs ({@code IORING_MAX_CQ_ENTRIES}). */
    public static final int MAX_CQ_ENTRIES = 2 * MAX_RING_ENTRIES;
    /**
     * Bytes per provided buffer unless the factory says otherwise: a typical request or a TLS record's worth, and
     * one page.
     */
    public static final int DEFAULT_BUFFER_SIZE_BYTES = 4096;
    /**
     * Provided buffers per loop unless the factory says otherwise ({@value #DEFAULT_BUFFER_SIZE_BYTES} bytes each:
     * 4 MiB of the allocator's direct memory per loop, shared by all of the loop's connections).
     */
    public static final int DEFAULT_BUFFER_COUNT = 1024;
    /**
     * Bytes per buffer of the large ring unless the factory says otherwise: what a channel in a bulk transfer
     * receives into, sixteen times the small buffer.
     */
    public static final int DEFAULT_LARGE_BUFFER_SIZE_BYTES = 64 * 1024;
    /** Buffers of the large ring unless the factory says otherwise (4 MiB per loop at the default size). */
    public static final int DEFAULT_LARGE_BUFFER_COUNT = 64;
    /** The buffer group of the small ring. */
    static final short SMALL_BUFFER_GROUP = 0;
    /** The buffer group of the large ring. */
    static final short LARGE_BUFFER_GROUP = 1;
    /** Reads in a row that filled a small buffer after which a channel receives into large buffers. */
    static final int FULL_READS_TO_GROW = 2;
    /** Reads in a row that fit in a small buffer after which a channel receives into small buffers again. */
    static final int SMALL_READS_TO_SHRINK = 4;
    /** The largest provided buffer, in bytes. */
    public static final int MAX_BUFFER_SIZE_BYTES = 1 << 20;
    /** How long a shutting-down handler waits for its operations' completions, in milliseconds. */
    public static final long SHUTDOWN_DRAIN_TIMEOUT_MILLIS = 5000;

    private static final LoopLogger LOGGER = LoopLogger.of(IoUringIoHandler.class);
    private static final AtomicIntegerFieldUpdater<IoUringIoHandler> WAKEUP_ARMED =
            AtomicIntegerFieldUpdater.newUpdater(IoUringIoHandler.class, "wakeupArmed");
    private static final AtomicIntegerFieldUpdater<IoUringIoHandler> REGISTRATIONS =
            AtomicIntegerFieldUpdater.newUpdater(IoUringIoHandler.class, "registrations");
    private static final AtomicIntegerFieldUpdater<IoUringIoHandler> SIGNALLERS =
            AtomicIntegerFieldUpdater.newUpdater(IoUringIoHandler.class, "signallers");
    /** {@code IOSQE_CQE_SKIP_SUCCESS}: refused, since a completion that is never posted can never be waited for. */
    private static final int IOSQE_CQE_SKIP_SUCCESS = 1 << 6;
    private static final long NO_TIMEOUT = -1;
    private static final int INITIAL_REGISTRATION_SLOTS = 64;
    private static final int EVENTFD_VALUE_BYTES = Long.BYTES;
    private static final long EVENTFD_READ_ID = UserData.encode(UserData.HANDLER_ID, IoUringIoOps.OP_READ, (short) 0);
    private static final long HANDLER_CANCEL_ID =
            UserData.encode(UserData.HANDLER_ID, IoUringIoOps.OP_ASYNC_CANCEL, (short) 0) | UserData.INTERNAL;
    /** What a handler lent the kernel and could not get back in time: kept reachable, never freed. */
    private static final Queue<Object> STRANDED = new ConcurrentLinkedQueue<>();

    private final EventLoop loop;
    private final Ticker ticker;
    private final IoUringRing ring;
    private final SubmissionQueue submissions;
    private final CompletionQueue completions;
    private final FileDescriptor eventFd;
    private final int eventFdNumber;
    // The 8 bytes the wake-up read fills; its address is lent to the kernel while the read is in flight.
    private final ByteBuffer eventFdValue;
    private final long eventFdValueAddress;
    private final IoUringIoEvent event = new IoUringIoEvent();
    private final int bufferSize;
    private final int bufferCount;
    private final int largeBufferSize;
    private final int largeBufferCount;
    /** The fewest buffers a ring shrunk to fit the direct memory limit may have; fewer, and there is no ring. */
    static final int MIN_RING_BUFFERS = 16;
    /** The fewest buffers the large ring may have; fewer, and channels receive into small buffers only. */
    static final int MIN_LARGE_RING_BUFFERS = 2;
    // Loop thread only: the provided buffer rings, or null (none asked for, or the kernel lacks them, or no room).
    private IoUringBufferRing bufferRing;
    private IoUringBufferRing largeBufferRing;

    // Loop thread only.
    private IoUringIoRegistration[] registrationsById = new IoUringIoRegistration[INITIAL_REGISTRATION_SLOTS];
    private int[] freeIds = new int[INITIAL_REGISTRATION_SLOTS];
    private int freeIdCount;
    private int nextId = UserData.HANDLER_ID + 1;
    private int inflight;
    private boolean eventFdReadInFlight;
    private boolean shuttingDown;
    private boolean drained;
    private boolean destroyed;
    private int handledThisRun;
    private long enters;

    private volatile int wakeupArmed;
    private volatile int registrations;
    // Wakers between consuming wakeupArmed and writing the eventfd; set once the eventfd is about to close.
    private volatile int signallers;
    private volatile boolean eventFdClosed;

    private IoUringIoHandler(EventLoop loop, int ringEntries, int cqEntries, int setupFlags, int bufferSize,
                             int bufferCount, int largeBufferSize, int largeBufferCount) {
        this.loop = loop;
        this.bufferSize = bufferSize;
        this.bufferCount = bufferCount;
        this.largeBufferSize = largeBufferSize;
        this.largeBufferCount = largeBufferCount;
        this.ticker = loop instanceof AbstractScheduledEventExecutor
                ? ((AbstractScheduledEventExecutor) loop).ticker() : Ticker.system();
        IoUringRing r = null;
        FileDescriptor ev = null;
        try {
            // A single issuer is whoever enables the ring: initialize(), on the loop's thread, not this one.
            int flags = (setupFlags & Native.IORING_SETUP_SINGLE_ISSUER) != 0
                    ? setupFlags | Native.IORING_SETUP_R_DISABLED : setupFlags;
            r = IoUringRing.open(ringEntries, cqEntries, flags);
            int fd = Native.blockingEventFd();
            if (fd < 0) {
                throw Errors.newIoException("eventfd", fd);
            }
            ev = new FileDescriptor(fd);
        } catch (IOException e) {
            closeQuietly(r);
            throw new UncheckedIOException("failed to set up an io_uring I/O handler", e);
        }
        this.ring = r;
        this.submissions = r.submissions();
        this.completions = r.completions();
        this.eventFd = ev;
        this.eventFdNumber = ev.intValue();
        this.eventFdValue = ByteBuffer.allocateDirect(EVENTFD_VALUE_BYTES);
        this.eventFdValueAddress = Native.bufferAddress(eventFdValue);
    }

    /**
     * A factory of handlers with {@value #DEFAULT_RING_ENTRIES} SQEs, {@value #DEFAULT_CQ_ENTRIES} CQEs and
     * provided buffer rings of {@value #DEFAULT_BUFFER_COUNT} buffers of {@value #DEFAULT_BUFFER_SIZE_BYTES} bytes
     * and {@value #DEFAULT_LARGE_BUFFER_COUNT} of {@value #DEFAULT_LARGE_BUFFER_SIZE_BYTES} bytes.
     *
     * @throws UnsatisfiedLinkError when a handler is created if {@link IoUring#isAvailable()} is false
     */
    public static IoHandlerFactory newFactory() {
        return newFactory(DEFAULT_RING_ENTRIES, DEFAULT_CQ_ENTRIES);
    }

    /**
     * A factory of handlers whose rings hold {@code ringEntries} SQEs and {@code cqEntries} CQEs (the kernel
     * rounds both up to powers of two), with the default provided buffer rings (see {@link #newFactory()}). Each
     * handler sets up its ring when it is created; failing that,
     * {@link IoHandlerFactory#newHandler} throws an {@link UncheckedIOException}, or an {@link UnsatisfiedLinkError}
     * if io_uring is not {@linkplain IoUring#isAvailable() available}.
     *
     * @throws IllegalArgumentException if {@code ringEntries} is outside 1-{@value #MAX_RING_ENTRIES} or
     *         {@code cqEntries} outside {@code ringEntries}-{@value #MAX_CQ_ENTRIES}
     */
    public static IoHandlerFactory newFactory(int ringEntries, int cqEntries) {
        return newFactory(ringEntries, cqEntries, DEFAULT_BUFFER_SIZE_BYTES, DEFAULT_BUFFER_COUNT,
                DEFAULT_LARGE_BUFFER_SIZE_BYTES, DEFAULT_LARGE_BUFFER_COUNT);
    }

    /**
     * A factory of handlers as {@link #newFactory(int, int)} whose TCP channels receive into one provided buffer
     * ring per loop of {@code bufferCount} buffers of {@code bufferSize} bytes each, taken from
     * {@link ByteBufAllocator#DEFAULT}, with one multishot receive per connection; {@code bufferCount} 0, or a
     * kernel without provided buffer rings and multishot receive (before Linux 6.3, see
     * {@link IoUringSocketChannel}), makes each connection receive with one receive at a time into a buffer of its
     * own instead. A ring that runs dry fires {@link IoUringBufferRingExhaustedEvent} on the channels that waited.
     * One ring only, whose buffers do not adapt to the traffic: {@link #newFactory(int, int, int, int, int, int)}
     * adds a ring of large buffers.
     *
     * @throws IllegalArgumentException if {@code ringEntries} or {@code cqEntries} are out of range (see
     *         {@link #newFactory(int, int)}), {@code bufferSize} is outside 1-{@value #MAX_BUFFER_SIZE_BYTES}, or
     *         {@code bufferCount} is neither 0 nor a power of two up to 32768
     */
    public static IoHandlerFactory newFactory(int ringEntries, int cqEntries, int bufferSize, int bufferCount) {
        return newFactory(ringEntries, cqEntries, bufferSize, bufferCount, MAX_BUFFER_SIZE_BYTES, 0);
    }

    /**
     * A factory of handlers as {@link #newFactory(int, int, int, int)} with a second provided buffer ring per loop,
     * of {@code largeBufferCount} buffers of {@code largeBufferSize} bytes: a channel whose reads keep filling the
     * small buffers receives into large ones until its reads are small again (see {@link #newFactory()}).
     * {@code largeBufferCount} 0 leaves the large ring out; {@code bufferCount} 0 leaves both out.
     *
     * @throws IllegalArgumentException as {@link #newFactory(int, int, int, int)} does, or if
     *         {@code largeBufferSize} is not above {@code bufferSize} or above {@value #MAX_BUFFER_SIZE_BYTES}, or
     *         {@code largeBufferCount} is neither 0 nor a power of two up to 32768
     */
    public static IoHandlerFactory newFactory(int ringEntries, int cqEntries, int bufferSize, int bufferCount,
                                              int largeBufferSize, int largeBufferCount) {
        if (bufferSize < 1 || bufferSize > MAX_BUFFER_SIZE_BYTES) {
            throw new IllegalArgumentException("bufferSize: " + bufferSize + " (expected: 1-"
                    + MAX_BUFFER_SIZE_BYTES + ')');
        }
        if (bufferCount < 0 || bufferCount > IoUringBufferRing.MAX_ENTRIES || Integer.bitCount(bufferCount) > 1) {
            throw new IllegalArgumentException("bufferCount: " + bufferCount + " (expected: 0 or a power of two up to "
                    + IoUringBufferRing.MAX_ENTRIES + ')');
        }
        if (largeBufferSize <= bufferSize || largeBufferSize > MAX_BUFFER_SIZE_BYTES) {
            throw new IllegalArgumentException("largeBufferSize: " + largeBufferSize + " (expected: "
                    + (bufferSize + 1) + '-' + MAX_BUFFER_SIZE_BYTES + ')');
        }
        if (largeBufferCount < 0 || largeBufferCount > IoUringBufferRing.MAX_ENTRIES
                || Integer.bitCount(largeBufferCount) > 1) {
            throw new IllegalArgumentException("largeBufferCount: " + largeBufferCount + " (expected: 0 or a power of"
                    + " two up to " + IoUringBufferRing.MAX_ENTRIES + ')');
        }
        if (ringEntries < 1 || ringEntries > MAX_RING_ENTRIES) {
            throw new IllegalArgumentException("ringEntries: " + ringEntries + " (expected: 1-" + MAX_RING_ENTRIES
                    + ')');
        }
        if (cqEntries < ringEntries || cqEntries > MAX_CQ_ENTRIES) {
            throw new IllegalArgumentException("cqEntries: " + cqEntries + " (expected: " + ringEntries + '-'
                    + MAX_CQ_ENTRIES + ')');
        }
        return loop -> {
            int setupFlags = IoUring.setupFlags();
            return new IoUringIoHandler(Objects.requireNonNull(loop, "loop"), ringEntries, cqEntries, setupFlags,
                    bufferSize, bufferCount, largeBufferSize, largeBufferCount);
        };
    }

    /** A factory that sets rings up with exactly {@code setupFlags} (tests of the fallbacks). */
    static IoHandlerFactory newFactoryWithSetupFlags(int setupFlags) {
        IoUring.ensureAvailability();
        return loop -> new IoUringIoHandler(loop, DEFAULT_RING_ENTRIES, DEFAULT_CQ_ENTRIES, setupFlags,
                DEFAULT_BUFFER_SIZE_BYTES, DEFAULT_BUFFER_COUNT, DEFAULT_LARGE_BUFFER_SIZE_BYTES,
                DEFAULT_LARGE_BUFFER_COUNT);
    }

    /**
     * Enables a single-issuer ring (this thread becomes its submitter), registers the ring descriptor where the
     * kernel allows it, sets up the provided buffer ring where asked for and supported, and arms the wake-up read.
     *
     * @throws UncheckedIOException if the ring could not be enabled
     */
    @Override
    public void initialize() {
        if ((ring.setupFlags() & Native.IORING_SETUP_R_DISABLED) != 0) {
            try {
                ring.enable();
            } catch (IOException e) {
                throw new UncheckedIOException("failed to enable the io_uring of " + this, e);
            }
        }
        int res = ring.registerRingFd();
        if (res < 0 && LOGGER.isLoggable(Level.DEBUG)) {
            LOGGER.log(Level.DEBUG, "ring descriptor of " + this + " not registered: "
                    + Errors.newIoException("io_uring_register(IORING_REGISTER_RING_FDS)", res).getMessage());
        }
        openBufferRing();
        armEventFdRead();
    }

    private void openBufferRing() {
        if (bufferCount == 0) {
            return;
        }
        if (!IoUring.isProvidedBufferRingSupported()) {
            LOGGER.log(Level.DEBUG, "no provided buffer ring for " + this + ": the kernel lacks"
                    + " IORING_FEAT_REG_REG_RING (Linux 6.3); connections receive into buffers of their own");
            return;
        }
        int count = ringBufferCount(bufferCount, bufferSize, DirectMemory.jvmMaxDirectMemory());
        if (count == 0) {
            LOGGER.log(Level.INFO, "no provided buffer ring for " + this + ": " + bufferCount + " buffers of "
                    + bufferSize + " bytes would take more than an eighth of the direct memory limit ("
                    + DirectMemory.jvmMaxDirectMemory() + " bytes, -XX:MaxDirectMemorySize); connections receive into"
                    + " buffers of their own");
            return;
        }
        if (count < bufferCount) {
            LOGGER.log(Level.INFO, "the provided buffer ring of " + this + " holds " + count + " buffers of "
                    + bufferSize + " bytes, not " + bufferCount + ": the ring takes at most an eighth of the direct"
                    + " memory limit (" + DirectMemory.jvmMaxDirectMemory() + " bytes, -XX:MaxDirectMemorySize)");
        }
        try {
            bufferRing = IoUringBufferRing.open(ring.fd(), ByteBufAllocator.DEFAULT, bufferSize, count,
                    SMALL_BUFFER_GROUP, this);
        } catch (IOException | RuntimeException | OutOfMemoryError e) {
            LOGGER.log(Level.INFO, "no provided buffer ring for " + this + ", connections receive into buffers of"
                    + " their own: " + e);
            return;
        }
        openLargeBufferRing((long) count * bufferSize);
    }

    /** Opens the large ring in what the small one ({@code smallRingBytes}) left of the eighth of direct memory. */
    private void openLargeBufferRing(long smallRingBytes) {
        if (largeBufferCount == 0) {
            return;
        }
        long budget = DirectMemory.jvmMaxDirectMemory() / 8 - smallRingBytes;
        int count = largeRingBufferCount(largeBufferCount, largeBufferSize, budget);
        if (count < largeBufferCount) {
            LOGGER.log(Level.INFO, "the large-buffer ring of " + this + " holds " + count + " buffers of "
                    + largeBufferSize + " bytes, not " + largeBufferCount + ": both rings take at most an eighth of"
                    + " the direct memory limit (" + DirectMemory.jvmMaxDirectMemory() + " bytes)"
                    + (count == 0 ? "; connections receive into small buffers only" : ""));
        }
        if (count == 0) {
            return;
        }
        try {
            largeBufferRing = IoUringBufferRing.open(ring.fd(), ByteBufAllocator.DEFAULT, largeBufferSize, count,
                    LARGE_BUFFER_GROUP, this);
        } catch (IOException | RuntimeException | OutOfMemoryError e) {
            LOGGER.log(Level.INFO, "no large-buffer ring for " + this + ", connections receive into small buffers"
                    + " only: " + e);
        }
    }

    /**
     * How many of {@code wanted} large buffers of {@code bufferSize} bytes fit in {@code budgetBytes}: all, or the
     * largest power of two that fits; 0 (no large ring) below {@value #MIN_LARGE_RING_BUFFERS}.
     */
    static int largeRingBufferCount(int wanted, int bufferSize, long budgetBytes) {
        long fit = budgetBytes / bufferSize;
        if (fit >= wanted) {
            return wanted;
        }
        int count = fit <= 0 ? 0 : Integer.highestOneBit((int) Math.min(fit, Integer.MAX_VALUE));
        return count < MIN_LARGE_RING_BUFFERS ? 0 : count;
    }

    /**
     * How many of {@code wanted} buffers of {@code bufferSize} bytes a ring gets under a direct memory limit of
     * {@code maxDirectMemory} bytes: as many as fit in an eighth of it, rounded down to a power of two, so the ring
     * never starves the rest of the process of direct memory; 0 (no ring) below {@value #MIN_RING_BUFFERS}.
     */
    static int ringBufferCount(int wanted, int bufferSize, long maxDirectMemory) {
        long fit = maxDirectMemory / 8 / bufferSize;
        if (fit >= wanted) {
            return wanted;
        }
        int count = fit <= 0 ? 0 : Integer.highestOneBit((int) Math.min(fit, Integer.MAX_VALUE));
        return count < MIN_RING_BUFFERS ? 0 : count;
    }

    /**
     * The provided buffer ring the TCP channels receive into, or {@code null} if there is none (not asked for,
     * not supported, or the handler is destroyed). Loop thread.
     */
    IoUringBufferRing bufferRing() {
        return bufferRing;
    }

    /** The provided buffer ring of large buffers, or {@code null} if there is none. Loop thread. */
    IoUringBufferRing largeBufferRing() {
        return largeBufferRing;
    }

    // ---------------------------------------------------------------- run

    @Override
    public int run(IoHandlerContext context) {
        // Re-armed while shutting down too: the loop still waits for tasks then; destroy() cancels it last.
        if (!eventFdReadInFlight) {
            armEventFdRead();
        }
        IoUringBufferRing buffers = bufferRing;
        if (buffers != null && !shuttingDown) {
            buffers.serveWaiters();
            IoUringBufferRing large = largeBufferRing;
            if (large != null) {
                large.serveWaiters();
            }
        }
        // Armed before the loop looks at its queue (in canBlock()), so a task that check misses comes with a
        // wakeup() that finds the flag set.
        WAKEUP_ARMED.set(this, 1);
        long timeoutNanos = 0;
        if (context.canBlock()) {
            long delay = context.delayNanos(ticker.nanoTime());
            timeoutNanos = delay == Long.MAX_VALUE ? NO_TIMEOUT : Math.max(0, delay);
        }
        int toSubmit = submissions.flush();
        if (timeoutNanos == 0) {
            WAKEUP_ARMED.lazySet(this, 0);
            enter(toSubmit, 0, NO_TIMEOUT);
        } else {
            enter(toSubmit, 1, timeoutNanos);
            // A stale 1 would only cost a later waker one redundant write; no fence needed.
            WAKEUP_ARMED.lazySet(this, 0);
        }
        long start = System.nanoTime();
        handledThisRun = 0;
        int processed = completions.process(this);
        context.reportActiveIoTime(processed == 0 ? 0 : System.nanoTime() - start);
        return handledThisRun;
    }

    /** One {@code io_uring_enter} with {@code GETEVENTS}; failures that only end the wait early are not news. */
    private void enter(int toSubmit, int minComplete, long timeoutNanos) {
        enters++;
        int res = ring.enter(toSubmit, minComplete, Native.IORING_ENTER_GETEVENTS, timeoutNanos);
        // ETIME: the deadline; EINTR: a signal; EBUSY/EAGAIN: completions must be reaped first, which follows.
        if (res < 0 && res != -Native.ETIME && res != -Native.EINTR && res != -Native.EBUSY
                && res != -Native.EAGAIN) {
            LOGGER.log(Level.WARNING, "io_uring_enter failed on ", this,
                    Errors.newIoException("io_uring_enter", res).getMessage(), null);
        }
    }

    /**
     * Submits the SQEs queued so far without waiting for anything. A channel calls it before it closes its
     * descriptor: an SQE names a descriptor by number, which the kernel resolves only when it takes the SQE, and a
     * number closed before that could already belong to another socket. Loop thread.
     */
    void submitQueued() {
        if (!destroyed) {
            submitNow();
        }
    }

    /** Submits what is queued without waiting (the submission queue is full, or a descriptor is about to close). */
    private void submitNow() {
        int toSubmit = submissions.flush();
        if (toSubmit > 0) {
            enter(toSubmit, 0, NO_TIMEOUT);
        }
    }

    private void enqueue(byte opcode, byte flags, short ioPrio, int fd, long off, long addr, int len, int opFlags,
                         long userData, short bufIndex, int spliceFdIn, long addr3) {
        if (!submissions.enqueue(opcode, flags, ioPrio, fd, off, addr, len, opFlags, userData, bufIndex,
                spliceFdIn, addr3)) {
            submitNow();
            if (!submissions.enqueue(opcode, flags, ioPrio, fd, off, addr, len, opFlags, userData, bufIndex,
                    spliceFdIn, addr3)) {
                throw new IllegalStateException("io_uring submission queue of " + this + " stays full ("
                        + submissions.entries() + " entries)");
            }
        }
        inflight++;
    }

    private void armEventFdRead() {
        enqueue(IoUringIoOps.OP_READ, (byte) 0, (short) 0, eventFdNumber, -1, eventFdValueAddress,
                EVENTFD_VALUE_BYTES, 0, EVENTFD_READ_ID, (short) 0, 0, 0);
        eventFdReadInFlight = true;
    }

    /** One CQE: the handler's own, or an operation of a registration. Loop thread. */
    @Override
    public void complete(long userData, int res, int flags) {
        boolean last = (flags & IoUringIoEvent.CQE_F_MORE) == 0;
        if (last) {
            inflight--;
        }
        int id = UserData.id(userData);
        if (id == UserData.HANDLER_ID) {
            if (userData == EVENTFD_READ_ID) {
                eventFdReadInFlight = false;
                if (res < 0 && res != -Native.ECANCELED && res != -Native.EINTR) {
                    LOGGER.log(Level.WARNING, "wake-up read failed on ", this,
                            Errors.newIoException("read(eventfd)", res).getMessage(), null);
                }
            }
            // The wake-up read's cancellation: its result needs nothing, the read's own CQE tells.
            return;
        }
        IoUringIoRegistration registration = id < registrationsById.length ? registrationsById[id] : null;
        if (registration == null) {
            LOGGER.log(Level.WARNING, "completion for no registration on ", this, "user_data 0x"
                    + Long.toHexString(userData) + ", res " + res, null);
            return;
        }
        if (last) {
            registration.completed(userData);
        }
        if (UserData.isInternal(userData)) {
            // A cancellation's own result (0, -ENOENT, -EALREADY): the target's CQE tells the handle.
            if (registration.inflightCount() == 0) {
                finish(registration);
            }
            return;
        }
        handledThisRun++;
        try {
            registration.handle().handle(registration, event.set(userData, res, flags));
        } catch (Throwable t) {
            LOGGER.log(Level.WARNING, "Unexpected exception from ", registration.handle(), " handling " + event, t);
        }
        if (!registration.isValid() && registration.inflightCount() == 0) {
            finish(registration);
        }
    }

    /**
     * Ends the current or next blocking wait, at most once per wait however often it is called. Any thread; after
     * {@link #destroy()} it does nothing, and a waker that consumed the flag just before never writes a closed (or
     * meanwhile reused) descriptor number: {@link #destroy()} waits for it (see {@link #closeEventFd()}).
     */
    @Override
    public void wakeup() {
        if (wakeupArmed != 0 && WAKEUP_ARMED.getAndSet(this, 0) != 0) {
            SIGNALLERS.incrementAndGet(this);
            try {
                if (!eventFdClosed) {
                    Native.eventFdWrite(eventFdNumber, 1L);
                }
            } finally {
                SIGNALLERS.decrementAndGet(this);
            }
        }
    }

    /**
     * Closes the eventfd once no waker is between consuming the flag and writing: a waker announces itself before it
     * reads {@link #eventFdClosed}, this method sets that before it reads the count (both volatile), so either the
     * waker sees the flag or this method sees the waker and waits the few instructions its write takes.
     */
    private void closeEventFd() {
        eventFdClosed = true;
        while (signallers != 0) {
            Thread.onSpinWait();
        }
        closeQuietly(eventFd);
    }

    // ---------------------------------------------------------------- registrations

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException if {@code handle} is not an {@link IoUringIoHandle}
     * @throws IllegalStateException if the handler is shutting down
     */
    @Override
    public IoRegistration register(IoHandle handle) {
        if (!(handle instanceof IoUringIoHandle)) {
            throw new IllegalArgumentException("incompatible handle: "
                    + (handle == null ? "null" : handle.getClass().getName())
                    + " (expected: " + IoUringIoHandle.class.getName() + ')');
        }
        if (shuttingDown) {
            throw new IllegalStateException(this + " is shutting down");
        }
        int id = allocateId();
        IoUringIoRegistration registration = new IoUringIoRegistration(this, (IoUringIoHandle) handle, id);
        registrationsById[id] = registration;
        REGISTRATIONS.incrementAndGet(this);
        return registration;
    }

    private int allocateId() {
        if (freeIdCount > 0) {
            return freeIds[--freeIdCount];
        }
        int id = nextId++;
        if (id == registrationsById.length) {
            registrationsById = Arrays.copyOf(registrationsById, id << 1);
        }
        return id;
    }

    /** {@link IoUringIoRegistration#submit}: queues one SQE. Loop thread. */
    long submit(IoUringIoRegistration registration, IoUringIoOps ops) {
        if (!loop.inEventLoop()) {
            throw new IllegalStateException("submit must be called on the event loop of " + this);
        }
        if (!registration.isValid()) {
            throw new IllegalStateException("registration cancelled: " + registration);
        }
        if ((ops.flags() & IOSQE_CQE_SKIP_SUCCESS) != 0) {
            throw new IllegalArgumentException("IOSQE_CQE_SKIP_SUCCESS is not supported: " + ops);
        }
        long userData = UserData.encode(registration.id(), ops.opcode(), ops.data());
        enqueue(ops.opcode(), ops.flags(), ops.ioPrio(), ops.fd(), ops.off(), ops.addr(), ops.len(), ops.opFlags(),
                userData, ops.bufIndex(), ops.spliceFdIn(), ops.addr3());
        registration.added(userData);
        return userData;
    }

    /** {@link IoUringIoRegistration#cancel()} succeeded: any thread. */
    void cancelled(IoUringIoRegistration registration) {
        REGISTRATIONS.decrementAndGet(this);
        if (loop.inEventLoop()) {
            cancelOperations(registration);
            return;
        }
        try {
            loop.execute(() -> cancelOperations(registration));
        } catch (RejectedExecutionException e) {
            // The loop is shutting down: prepareToDestroy() cancels what every registration has in flight.
        }
    }

    /** Asks the kernel to cancel every operation of a cancelled registration, or finishes it. Loop thread. */
    private void cancelOperations(IoUringIoRegistration registration) {
        if (registration.isFinished() || destroyed || !registration.markCancelSubmitted()) {
            return;
        }
        int count = registration.inflightCount();
        if (count == 0) {
            finish(registration);
            return;
        }
        // Counted in the registration's ledger too, so its id is reused only once they have completed.
        long cancelId = UserData.encode(registration.id(), IoUringIoOps.OP_ASYNC_CANCEL, (short) 0)
                | UserData.INTERNAL;
        for (int i = 0; i < count; i++) {
            enqueueCancel(registration.inflight(i), cancelId);
        }
        for (int i = 0; i < count; i++) {
            registration.added(cancelId);
        }
    }

    private void enqueueCancel(long targetUserData, long cancelId) {
        enqueue(IoUringIoOps.OP_ASYNC_CANCEL, (byte) 0, (short) 0, -1, 0, targetUserData, 0, 0, cancelId,
                (short) 0, 0, 0);
    }

    /** Nothing of the registration is in flight: tells the handle and frees the id. Loop thread. */
    private void finish(IoUringIoRegistration registration) {
        if (registration.isFinished()) {
            return;
        }
        registration.finish();
        int id = registration.id();
        registrationsById[id] = null;
        if (freeIdCount == freeIds.length) {
            freeIds = Arrays.copyOf(freeIds, freeIdCount << 1);
        }
        freeIds[freeIdCount++] = id;
        try {
            registration.handle().unregistered();
        } catch (Throwable t) {
            LOGGER.log(Level.WARNING, "Unexpected exception from ", registration.handle(), " in unregistered()", t);
        }
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return IoUringIoHandle.class.isAssignableFrom(handleType);
    }

    /** Handles registered now: from a successful {@link #register} until {@link IoRegistration#cancel()}. */
    @Override
    public int registrationCount() {
        return registrations;
    }

    /** Operations (the handler's own included) submitted or queued and not yet completed. Loop thread; tests. */
    int inflightCount() {
        return inflight;
    }

    /** How many times this handler entered the kernel. Loop thread; tests. */
    long enterCount() {
        return enters;
    }

    /** The ring's setup flags. Tests. */
    int setupFlags() {
        return ring.setupFlags();
    }

    /** Whether enters go through a registered ring descriptor. Loop thread; tests. */
    boolean isRingFdRegistered() {
        return ring.isRingFdRegistered();
    }

    // ---------------------------------------------------------------- shutdown

    /**
     * Cancels every registration and the wake-up read, waits for every operation's completion (at most
     * {@value #SHUTDOWN_DRAIN_TIMEOUT_MILLIS} ms), then closes the handles that were still registered.
     */
    @Override
    public void prepareToDestroy() {
        if (shuttingDown) {
            return;
        }
        shuttingDown = true;
        List<IoUringIoHandle> toClose = new ArrayList<>();
        IoUringIoRegistration[] table = registrationsById;
        for (int id = UserData.HANDLER_ID + 1; id < nextId && id < table.length; id++) {
            IoUringIoRegistration registration = table[id];
            if (registration == null) {
                continue;
            }
            if (registration.isValid()) {
                toClose.add(registration.handle());
            }
            // cancel() goes through cancelled(), which runs cancelOperations() here on the loop.
            if (!registration.cancel()) {
                cancelOperations(registration);
            }
        }
        cancelWakeupReadAndDrain();
        for (IoUringIoHandle handle : toClose) {
            closeQuietly(handle);
        }
    }

    private void cancelWakeupReadAndDrain() {
        if (eventFdReadInFlight) {
            enqueueCancel(EVENTFD_READ_ID, HANDLER_CANCEL_ID);
        }
        drained = drain(TimeUnit.MILLISECONDS.toNanos(SHUTDOWN_DRAIN_TIMEOUT_MILLIS));
    }

    /** Enters until nothing is in flight or {@code timeoutNanos} passed; whether nothing is. */
    private boolean drain(long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        while (inflight > 0) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                break;
            }
            enter(submissions.flush(), 1, remaining);
            completions.process(this);
        }
        if (inflight == 0) {
            return true;
        }
        LOGGER.log(Level.WARNING, inflight + " io_uring operations of " + this + " did not complete within "
                + SHUTDOWN_DRAIN_TIMEOUT_MILLIS + " ms of shutdown: their memory is never freed");
        STRANDED.add(eventFdValue);
        for (IoUringIoRegistration registration : registrationsById) {
            if (registration != null && !registration.isFinished()) {
                STRANDED.add(registration);
            }
        }
        return false;
    }

    /**
     * Shuts down as {@link #prepareToDestroy()} does if that did not run (else cancels the wake-up read the runs
     * since re-armed, and drains again), then closes the eventfd and the ring.
     */
    @Override
    public void destroy() {
        if (destroyed) {
            return;
        }
        if (shuttingDown) {
            // The runs after prepareToDestroy() re-armed the wake-up read.
            cancelWakeupReadAndDrain();
        } else {
            prepareToDestroy();
        }
        destroyed = true;
        closeBufferRing();
        closeEventFd();
        closeQuietly(ring);
        if (!drained) {
            LOGGER.log(Level.DEBUG, "closed " + this + " with operations in flight");
        }
    }

    /**
     * Unregisters the provided buffer rings and frees the buffers in them, if every operation completed; else keeps
     * each reachable for good, since a receive still in flight may yet pick one of its buffers.
     */
    private void closeBufferRing() {
        IoUringBufferRing large = largeBufferRing;
        largeBufferRing = null;
        closeBufferRing(large);
        IoUringBufferRing small = bufferRing;
        bufferRing = null;
        closeBufferRing(small);
    }

    private void closeBufferRing(IoUringBufferRing buffers) {
        if (buffers == null) {
            return;
        }
        if (drained) {
            buffers.close();
        } else {
            STRANDED.add(buffers);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            LOGGER.log(Level.DEBUG, "failed to close " + closeable, e);
        }
    }

    @Override
    public String toString() {
        return "IoUringIoHandler(ring=" + ring.fd() + ", " + registrations + " registrations)";
    }
}
