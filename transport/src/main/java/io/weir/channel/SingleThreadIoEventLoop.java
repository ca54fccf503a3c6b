package io.weir.channel;

import io.weir.metrics.EventLoopMetrics;
import io.weir.util.Ticker;
import io.weir.util.concurrent.DefaultThreadFactory;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.Promise;
import io.weir.util.concurrent.RejectedExecutionHandler;
import io.weir.util.concurrent.SingleThreadEventExecutor;
import io.weir.util.platform.LoopLogger;
import io.weir.util.platform.SystemProperties;
import java.lang.System.Logger.Level;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.UnaryOperator;

/**
 * An {@link EventLoop}: one thread that alternates between its {@link IoHandler} (waiting for and dispatching
 * readiness) and its tasks.
 *
 * <p><b>The loop.</b> {@link IoHandler#initialize()} once; then, until shutdown is confirmed: one
 * {@link IoHandler#run} (allowed to block only while no task is queued, and no longer than the next
 * scheduled task's deadline), then the due scheduled tasks and the queued tasks within a time budget; when
 * shutdown begins, {@link IoHandler#prepareToDestroy()} once (the handler closes its handles while tasks can
 * still run), and {@link IoHandler#destroy()} last, on the loop thread.
 *
 * <p><b>Balancing I/O and tasks.</b> The task time budget of an iteration is derived from the I/O time of
 * the same iteration through the {@linkplain #ioRatio() I/O ratio} {@code r} (percent of loop time meant for
 * I/O): {@code taskBudget = activeIoTime × (100 − r) / r}, and never less than
 * {@value #MIN_TASK_TIME_BUDGET_NANOS} ns, so an iteration without I/O still drains a useful number of tasks
 * before the loop polls for readiness again. Only the time the handler spent dispatching events counts as
 * I/O time, not the time it waited (handlers report it through {@link IoHandlerContext#reportActiveIoTime}).
 * A ratio of 100 turns the budget off: every task queued at the start of the task phase runs. Whatever the
 * budget, tasks queued by tasks of the same phase wait for the next iteration, so no task can starve I/O by
 * re-submitting itself.
 *
 * <p><b>Wake-ups.</b> Only other threads wake the handler ({@link IoHandler#wakeup()}); the loop never wakes
 * itself. An atomic flag, armed just before the handler may block and consumed by the first waker, makes a
 * burst of submissions from another thread cost one {@code IoHandler.wakeup()} call. Before the handler may
 * block, the loop watches its queue for a while: a thread handing it work in a steady stream (writes from
 * outside the loop, request after response) then finds it awake, and neither side pays the system calls and
 * scheduler latency of a sleep and a wake-up. The watch lasts {@code io.weir.eventLoop.idleSpinNanos}
 * ({@value #DEFAULT_IDLE_SPIN_NANOS} ns by default) and adapts to how sleeps end: it grows, up to
 * {@code io.weir.eventLoop.maxIdleSpinNanos} ({@value #DEFAULT_MAX_IDLE_SPIN_NANOS} ns), while submitters keep
 * waking the loop shortly after it went to sleep, and shrinks back when sleeps last or I/O ends them. I/O
 * readiness that arrives during a watch waits at most that long. A watch at its minimum runs only after a sleep
 * that a submitter ended, so a loop fed by I/O alone (a server with slack) does not spend it on every sleep; set
 * {@code idleSpinNanos} to 0 to turn the watch off entirely. The watch sees tasks only; a handler may poll
 * for readiness after it, with the wake-up flag armed so tasks still reach it (the NIO and epoll handlers do, by
 * {@link io.weir.channel.internal.IdlePoll}, which adapts to how I/O ends their sleeps, as this watch adapts to
 * submitters).
 *
 * <p><b>Threads.</b> All public methods are thread-safe. The metrics ({@link EventLoopMetrics}, also reached as
 * {@link #metrics()}) are written by the loop thread into plain fields (wake-ups, by the wakers into an adder); reads
 * from other threads are best effort.
 */
public final class SingleThreadIoEventLoop extends SingleThreadEventExecutor implements EventLoop, EventLoopMetrics {
    /** Default {@linkplain #ioRatio() I/O ratio}: half of a busy loop's time for I/O, half for tasks. */
    public static final int DEFAULT_IO_RATIO = 50;
    /**
     * Smallest task time budget of an iteration, in nanoseconds: what tasks get when the I/O phase dispatched
     * nothing. 100 µs run thousands of small tasks, yet keep readiness polled often.
     */
    public static final long MIN_TASK_TIME_BUDGET_NANOS = 100_000;
    /**
     * Default for {@code io.weir.eventLoop.idleSpinNanos}: how long an idle loop watches its task queue before
     * its I/O handler may block, in nanoseconds; 0 turns the spin off. Long enough to catch the next task of
     * a producer that is between two submissions, short enough that an idle loop costs nothing noticeable.
     */
    public static final long DEFAULT_IDLE_SPIN_NANOS = 1_000;
    static final long IDLE_SPIN_NANOS =
            Math.max(0, SystemProperties.getLong("io.weir.eventLoop.idleSpinNanos", DEFAULT_IDLE_SPIN_NANOS));
    /**
     * Default for {@code io.weir.eventLoop.maxIdleSpinNanos}: the longest the idle watch grows to while
     * submitters from other threads keep waking the loop within that time of its going to sleep.
     */
    public static final long DEFAULT_MAX_IDLE_SPIN_NANOS = 20_000;
    static final long MAX_IDLE_SPIN_NANOS =
            SystemProperties.getLong("io.weir.eventLoop.maxIdleSpinNanos", DEFAULT_MAX_IDLE_SPIN_NANOS);
    private static final long NOT_IDLE = Long.MIN_VALUE;

    private static final LoopLogger LOGGER = LoopLogger.of(SingleThreadIoEventLoop.class);

    private static final AtomicIntegerFieldUpdater<SingleThreadIoEventLoop> WAKEUP_ARMED =
            AtomicIntegerFieldUpdater.newUpdater(SingleThreadIoEventLoop.class, "wakeupArmed");

    private final IoHandler ioHandler;
    private final IoContext context = new IoContext();
    // Ticker reading at this executor's time origin: converts a handler's ticker reading to deadline time.
    private final long tickerOriginNanos;

    // 1 from the moment the handler is told it may block until a waker consumes it or the run returns.
    private volatile int wakeupArmed;
    private volatile int ioRatio = DEFAULT_IO_RATIO;

    // Loop thread only.
    // What the handler reported for its current run; 0 when it reported nothing.
    private long reportedIoTimeNanos;
    private boolean preparedToDestroy;
    // Loop thread only: registered channels that have no I/O handle, which the handler therefore cannot close.
    private final Set<AbstractChannel> handlelessChannels = Collections.newSetFromMap(new IdentityHashMap<>());
    // Written by the loop thread; read by anyone, best effort.
    private int ioEventsHandledLastRun;
    private final long createdAtNanos = System.nanoTime();
    // Written by the threads that wake the loop (once per sleep, by the first of them).
    private final LongAdder wakeups = new LongAdder();
    // Written by the loop's channels on the loop thread; read by anyone, best effort.
    final IoByteCounters ioBytes = new IoByteCounters();

    /**
     * A loop whose thread comes from {@code threadFactory} ({@code null}: a {@link DefaultThreadFactory}), with
     * the system ticker, an unbounded task queue and the throwing rejection handler.
     *
     * @param parent the group this loop belongs to, or {@code null}
     * @param ioHandlerFactory creates this loop's I/O handler, called once from this constructor
     * @throws NullPointerException if {@code ioHandlerFactory} is null or returns null
     */
    public SingleThreadIoEventLoop(EventLoopGroup parent, ThreadFactory threadFactory,
                                   IoHandlerFactory ioHandlerFactory) {
        this(parent, threadFactory == null ? null : new ThreadPerTaskExecutor(threadFactory), ioHandlerFactory);
    }

    /**
     * A loop whose thread is started by {@code executor} ({@code null}: a {@link DefaultThreadFactory}), with
     * the system ticker, an unbounded task queue and the throwing rejection handler.
     *
     * @param executor runs the loop on a new or otherwise idle thread
     */
    public SingleThreadIoEventLoop(EventLoopGroup parent, Executor executor, IoHandlerFactory ioHandlerFactory) {
        this(parent, executor, ioHandlerFactory, Ticker.system(), DEFAULT_MAX_PENDING_TASKS,
                RejectedExecutionHandler.REJECT, null);
    }

    /**
     * A loop with every option.
     *
     * @param parent the group this loop belongs to, or {@code null}
     * @param executor runs the loop on a new or otherwise idle thread ({@code null}: a
     *        {@link DefaultThreadFactory} named after this class)
     * @param ioHandlerFactory creates this loop's I/O handler, called once from this constructor
     * @param ticker the clock of scheduled tasks and of the shutdown quiet period
     * @param maxPendingTasks queue capacity beyond which submissions are rejected ({@link Integer#MAX_VALUE}:
     *        unbounded)
     * @param rejectedHandler decides the fate of refused tasks
     * @param taskDecorator applied to every submitted or scheduled task, or {@code null}
     * @throws NullPointerException if {@code ioHandlerFactory}, {@code ticker} or {@code rejectedHandler} is
     *         null, or the factory returns null
     * @throws IllegalArgumentException if {@code maxPendingTasks} is not positive
     */
    public SingleThreadIoEventLoop(EventLoopGroup parent, Executor executor, IoHandlerFactory ioHandlerFactory,
                                   Ticker ticker, int maxPendingTasks, RejectedExecutionHandler rejectedHandler,
                                   UnaryOperator<Runnable> taskDecorator) {
        super(parent, executor, ticker, maxPendingTasks, rejectedHandler, taskDecorator);
        Objects.requireNonNull(ioHandlerFactory, "ioHandlerFactory");
        this.tickerOriginNanos = ticker.nanoTime() - currentTimeNanos();
        this.ioHandler = Objects.requireNonNull(ioHandlerFactory.newHandler(this), "ioHandlerFactory returned null");
    }

    // ---------------------------------------------------------------- the loop

    @Override
    protected void run() {
        try {
            runLoop();
        } catch (Throwable t) {
            // Nothing on the loop's path lets a Throwable out, so this loop really cannot go on. Close the
            // handles now, while the executor's final drain can still run the tasks their closes queue
            // (channelInactive, channelUnregistered); the executor then fails its termination future with t.
            if (!preparedToDestroy) {
                preparedToDestroy = true;
                prepareIoHandlerToDestroy();
            }
            throw t;
        }
    }

    private void runLoop() {
        ioHandler.initialize();
        for (;;) {
            runIo();
            if (!preparedToDestroy && isShuttingDown()) {
                preparedToDestroy = true;
                prepareIoHandlerToDestroy();
            }
            runTasks();
            if (confirmShutdown()) {
                if (preparedToDestroy) {
                    return;
                }
                // Shutdown began after this iteration's check: close the handles now, and go round once more
                // so that the tasks their closes queue (channelInactive, channelUnregistered) still run.
                preparedToDestroy = true;
                prepareIoHandlerToDestroy();
            }
        }
    }

    private void runIo() {
        // These fields share cache lines with what every submitter reads: they are written only when they
        // change, so a loop busy with tasks from other threads (no I/O) leaves them clean.
        if (reportedIoTimeNanos != 0) {
            reportedIoTimeNanos = 0;
        }
        int handled;
        try {
            handled = ioHandler.run(context);
        } catch (Throwable t) {
            // The loop must survive a handler failure: its channels and tasks still need it.
            LOGGER.log(Level.WARNING, "Unexpected exception from the I/O handler of ", this, t);
            handled = 0;
        } finally {
            context.afterRun();
            // A stale 1 only costs a later waker one redundant IoHandler.wakeup(); no fence needed. Written
            // only when set, so a busy loop does not dirty the cache line that every submitter reads.
            if (wakeupArmed != 0) {
                WAKEUP_ARMED.lazySet(this, 0);
            }
        }
        if (ioEventsHandledLastRun != handled) {
            ioEventsHandledLastRun = handled;
        }
    }

    private void runTasks() {
        int ratio = ioRatio;
        if (ratio == 100) {
            runAllTasks();
            return;
        }
        long ioTime = reportedIoTimeNanos;
        long budget = ioTime <= 0 ? MIN_TASK_TIME_BUDGET_NANOS
                : Math.max(MIN_TASK_TIME_BUDGET_NANOS, ioTime * (100 - ratio) / ratio);
        runAllTasks(budget);
    }

    private void prepareIoHandlerToDestroy() {
        try {
            ioHandler.prepareToDestroy();
        } catch (Throwable t) {
            LOGGER.log(Level.WARNING, "Exception while preparing the I/O handler of ", this, " to be destroyed", t);
        }
        // Channels without an I/O handle (local ones) close here, like the handler's: with their events, while
        // the loop still runs the tasks those queue.
        if (!handlelessChannels.isEmpty()) {
            for (AbstractChannel channel : handlelessChannels.toArray(new AbstractChannel[0])) {
                try {
                    channel.close();
                } catch (Throwable t) {
                    LOGGER.log(Level.WARNING, "Exception while closing ", channel, " on shutdown", t);
                }
            }
        }
    }

    /**
     * A channel without an I/O handle registered with this loop; closed when the loop starts shutting down, if
     * it registered before that (a later one is the transport's to close). Channels their parent closes
     * ({@link AbstractChannel#isClosedByParent()}, an HTTP/2 stream's) never come here. Loop thread only.
     */
    void handlelessChannelRegistered(AbstractChannel channel) {
        handlelessChannels.add(channel);
    }

    /** That channel deregistered (or closed). Loop thread only. */
    void handlelessChannelDeregistered(AbstractChannel channel) {
        handlelessChannels.remove(channel);
    }

    /** How many handle-less channels this loop would close at shutdown. Loop thread only; for tests. */
    int handlelessChannelCount() {
        return handlelessChannels.size();
    }

    @Override
    protected void cleanup() {
        if (!preparedToDestroy) {
            // run() ended early (initialize() threw): the handler still gets its chance to close handles.
            preparedToDestroy = true;
            prepareIoHandlerToDestroy();
        }
        ioHandler.destroy();
    }

    @Override
    protected void wakeup(boolean inEventLoop) {
        if (!inEventLoop && wakeupArmed != 0 && WAKEUP_ARMED.getAndSet(this, 0) != 0) {
            // Once per sleep (only the first waker gets here): tells the loop how soon after sleeping it was
            // needed, which sizes its next idle watch.
            context.wokenAtNanos = System.nanoTime();
            wakeups.increment();
            ioHandler.wakeup();
        }
        // Covers the park of the graceful-shutdown quiet period.
        super.wakeup(inEventLoop);
    }

    /** What the handler sees of this loop during one run. Loop thread only, but for {@link #wokenAtNanos}. */
    private final class IoContext implements IoHandlerContext {
        final IdleSpin idleSpin = new IdleSpin(IDLE_SPIN_NANOS, MAX_IDLE_SPIN_NANOS);
        // When the idle watch of the current run ended without a task, so the handler may block; else NOT_IDLE.
        private long idleSinceNanos = NOT_IDLE;
        // Written by the submitter that consumed the armed flag, just before it wakes the handler.
        volatile long wokenAtNanos = NOT_IDLE;
        // Whether a submitter ended the last sleep: until one does, the watch at its minimum is not run (below).
        private boolean lastSleepEndedBySubmitter;
        // Every reported I/O time added up; here rather than among the loop's fields, which submitters read: this
        // one is written on every run with I/O. Read by anyone, best effort.
        long totalIoTimeNanos;

        @Override
        public boolean canBlock() {
            // While shutting down, confirmShutdown() does the waiting, bounded; a blocking run would not come
            // back to it. A busy loop answers here without touching the flag.
            if (hasTasks() || isShuttingDown() || taskArrivedWhileSpinning()) {
                return false;
            }
            // Arm, then look at the queue and the state again: a submitter offers (and a shutdown changes the
            // state) before reading the flag, so either this check sees the task or the new state, or the other
            // thread sees the flag and wakes the handler. Without the state here, a shutdown that began during
            // the checks above would not wake a handler blocked with no timeout.
            WAKEUP_ARMED.set(SingleThreadIoEventLoop.this, 1);
            if (hasTasks() || isShuttingDown()) {
                WAKEUP_ARMED.lazySet(SingleThreadIoEventLoop.this, 0);
                idleSinceNanos = NOT_IDLE;
                return false;
            }
            return true;
        }

        private boolean taskArrivedWhileSpinning() {
            long spin = idleSpin.nanos();
            if (spin == 0) {
                return false;
            }
            long start = System.nanoTime();
            if (spin <= IDLE_SPIN_NANOS && !lastSleepEndedBySubmitter) {
                // A loop whose sleeps I/O or timers end (a server with slack) would spend the minimum watch on
                // every sleep and catch nothing: it watches only once a submitter has woken it, and the watch
                // still learns from that wake-up, as it starts here.
                idleSinceNanos = start;
                return false;
            }
            long now;
            do {
                Thread.onSpinWait();
                if (hasTasks()) {
                    return true;
                }
                now = System.nanoTime();
            } while (now - start < spin);
            idleSinceNanos = now;
            return false;
        }

        /** After each handler run: if the handler was allowed to block, adapts the idle watch to how that ended. */
        void afterRun() {
            long idleSince = idleSinceNanos;
            if (idleSince == NOT_IDLE) {
                return;
            }
            idleSinceNanos = NOT_IDLE;
            // A wake-up stamped before this sleep began belongs to an earlier one: I/O or a timer ended this.
            long wokenAt = wokenAtNanos;
            lastSleepEndedBySubmitter = wokenAt != NOT_IDLE && wokenAt - idleSince >= 0;
            idleSpin.sleepEnded(lastSleepEndedBySubmitter ? wokenAt - idleSince : -1);
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            long deadline = nextScheduledTaskDeadlineNanos();
            if (deadline < 0) {
                return Long.MAX_VALUE;
            }
            return Math.max(0, deadline - (currentTimeNanos - tickerOriginNanos));
        }

        @Override
        public void reportActiveIoTime(long activeIoTimeNanos) {
            long reported = Math.max(0, activeIoTimeNanos);
            totalIoTimeNanos += reported;
            if (reportedIoTimeNanos != reported) {
                reportedIoTimeNanos = reported;
            }
        }
    }

    // ---------------------------------------------------------------- EventLoop

    @Override
    public EventLoop next() {
        return this;
    }

    @Override
    public EventLoopGroup parent() {
        return (EventLoopGroup) super.parent();
    }

    /**
     * {@inheritDoc}
     *
     * <p>The future fails with an {@link IllegalArgumentException} if the handle is not compatible, with a
     * {@link RejectedExecutionException} if the loop is shutting down (also when shutdown begins before the
     * registration task runs), or with whatever the I/O handler threw.
     *
     * @throws NullPointerException if {@code handle} is null
     */
    @Override
    public Future<IoRegistration> register(IoHandle handle) {
        Objects.requireNonNull(handle, "handle");
        if (!ioHandler.isCompatible(handle.getClass())) {
            return newFailedFuture(new IllegalArgumentException("incompatible handle: " + handle.getClass().getName()
                    + " (this loop's I/O handler is " + ioHandler.getClass().getName() + ')'));
        }
        if (isShuttingDown()) {
            return newFailedFuture(shuttingDown());
        }
        Promise<IoRegistration> promise = newPromise();
        if (inEventLoop()) {
            register0(handle, promise);
        } else {
            try {
                execute(() -> register0(handle, promise));
            } catch (RejectedExecutionException e) {
                promise.tryFailure(e);
            }
        }
        return promise;
    }

    private void register0(IoHandle handle, Promise<IoRegistration> promise) {
        // Handles registered after prepareToDestroy() would never be closed before destroy(): refuse them.
        if (isShuttingDown()) {
            promise.tryFailure(shuttingDown());
            return;
        }
        IoRegistration registration;
        try {
            registration = ioHandler.register(handle);
        } catch (Throwable t) {
            promise.tryFailure(t);
            return;
        }
        if (!promise.trySuccess(registration)) {
            // Cancelled by the caller meanwhile: nobody will ever cancel this registration.
            registration.cancel();
        }
    }

    private RejectedExecutionException shuttingDown() {
        return new RejectedExecutionException("event loop is shutting down: " + this);
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return ioHandler.isCompatible(Objects.requireNonNull(handleType, "handleType"));
    }

    // ---------------------------------------------------------------- tuning and metrics

    /** The percentage of a busy loop's time meant for I/O (1 to 100); see the class comment. */
    public int ioRatio() {
        return ioRatio;
    }

    /**
     * Sets the {@linkplain #ioRatio() I/O ratio}; takes effect from the next iteration. Any thread.
     *
     * @param ioRatio 1 to 99 to bound task time by I/O time, 100 to run all queued tasks every iteration
     * @throws IllegalArgumentException if {@code ioRatio} is outside 1..100
     */
    public void setIoRatio(int ioRatio) {
        if (ioRatio <= 0 || ioRatio > 100) {
            throw new IllegalArgumentException("ioRatio: " + ioRatio + " (expected: 1-100)");
        }
        this.ioRatio = ioRatio;
    }

    /**
     * Handles registered with this loop's I/O handler right now, or -1 if the handler does not count them
     * (see {@link IoHandler#registrationCount()}). Any thread, best effort.
     */
    public int registeredChannels() {
        return ioHandler.registrationCount();
    }

    /**
     * How long this loop, once idle, now watches its task queue before its I/O handler may block, in
     * nanoseconds (see the class comment); 0 if the watch is off. Any thread, best effort.
     */
    public long idleSpinNanos() {
        return context.idleSpin.nanos();
    }

    /** What the most recent {@link IoHandler#run} returned: handles it dispatched to. Any thread, best effort. */
    public int ioEventsHandledLastRun() {
        return ioEventsHandledLastRun;
    }

    /** Returns this loop, whose metrics are read from it directly. */
    @Override
    public EventLoopMetrics metrics() {
        return this;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Counts only what the I/O handler reports through {@link IoHandlerContext#reportActiveIoTime}.
     */
    @Override
    public long ioTimeNanos() {
        return context.totalIoTimeNanos;
    }

    @Override
    public double ioTimeRatio() {
        long alive = System.nanoTime() - createdAtNanos;
        return alive <= 0 ? 0 : Math.min(1.0, (double) context.totalIoTimeNanos / alive);
    }

    @Override
    public long wakeups() {
        return wakeups.sum();
    }

    /**
     * {@inheritDoc}
     *
     * <p>Counted by the socket transports (NIO, epoll, kqueue, io_uring) for stream channels.
     */
    @Override
    public long bytesRead() {
        return ioBytes.read();
    }

    /**
     * {@inheritDoc}
     *
     * <p>Counted by the socket transports (NIO, epoll, kqueue, io_uring) for stream channels.
     */
    @Override
    public long bytesWritten() {
        return ioBytes.written();
    }

    /** Starts one new thread per task; used to start the loop thread from a factory. */
    private static final class ThreadPerTaskExecutor implements Executor {
        private final ThreadFactory threadFactory;

        ThreadPerTaskExecutor(ThreadFactory threadFactory) {
            this.threadFactory = threadFactory;
        }

        @Override
        public void execute(Runnable command) {
            threadFactory.newThread(command).start();
        }
    }
}
