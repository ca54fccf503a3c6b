package io.weir.util.concurrent;

import io.weir.metrics.TaskTiming;
import io.weir.metrics.WeirEvents;
import io.weir.util.Ticker;
import io.weir.util.platform.LoopLogger;
import io.weir.util.platform.Queues;
import io.weir.util.platform.SystemProperties;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;

/**
 * An executor that runs every task on one thread, the base of Weir's event loops.
 *
 * <p><b>Threads.</b> {@link #execute} and the submit/schedule methods may be called from any thread. Tasks
 * from other threads go through a lock-free multi-producer single-consumer queue; the executor thread is
 * started on the first submission (from the {@link ThreadFactory} or {@link Executor} given, by default a
 * {@link DefaultThreadFactory}) and is the only consumer. The {@code protected final} helpers
 * ({@link #takeTask()}, {@link #runAllTasks()}, {@link #pollTask()}, {@link #confirmShutdown()}, ...) may only
 * be called from {@link #run()}, on the executor thread.
 *
 * <p><b>Wake-ups.</b> A submission from another thread calls {@link #wakeup(boolean)}, which the subclass
 * overrides when it blocks on something else (a selector); the default unparks the thread if it is waiting
 * in {@link #takeTask()}. The executor never wakes itself: before it blocks it announces that it is about to
 * sleep and checks the queue once more, so a task offered concurrently is never missed. When the
 * {@link Ticker} can report advances (a {@link io.weir.util.ManualTicker}), each advance wakes the executor
 * so scheduled tasks become due without wall-clock waiting.
 *
 * <p><b>Life cycle.</b> not started &rarr; started &rarr; shutting down (graceful: tasks still accepted until
 * a quiet period passes or the timeout expires) &rarr; shut down (new tasks rejected; the tasks already
 * queued are run, or discarded after {@link #shutdownNow()}) &rarr; terminated. If {@link #run()} throws (no
 * catch block on the executor's path lets anything out, so this means the loop really cannot go on), the
 * executor still shuts down in order, {@link #cleanup()} included, and its {@linkplain #terminationFuture()
 * termination future} fails with what was thrown. A task is either run or
 * handed to the {@link RejectedExecutionHandler}, never silently lost, yet a submission costs no atomic
 * read-modify-write of the executor's own (see {@link #execute}). Scheduled tasks are cancelled once shutdown
 * begins.
 *
 * <p><b>Metrics.</b> {@link #pendingTasks()}, {@link #tasksRunLastIteration()} and {@link #totalTasksRun()}
 * are written only by the executor thread into plain fields; reads from other threads are best effort.
 */
public abstract class SingleThreadEventExecutor extends AbstractScheduledEventExecutor {
    /**
     * Default for {@code io.weir.eventExecutor.maxPendingTasks}: tasks a queue holds before submissions are
     * rejected. {@link Integer#MAX_VALUE} means unbounded.
     */
    public static final int DEFAULT_MAX_PENDING_TASKS = Math.max(16,
            SystemProperties.getInt("io.weir.eventExecutor.maxPendingTasks", Integer.MAX_VALUE));

    private static final LoopLogger LOGGER = LoopLogger.of(SingleThreadEventExecutor.class);

    /** Longest single wait while the quiet period of a graceful shutdown runs, so progress is re-checked. */
    private static final long SHUTDOWN_POLL_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Tasks run between two clock reads in {@link #runAllTasks(long)}; reading the clock is not free. */
    private static final int TASKS_BETWEEN_DEADLINE_CHECKS = 64;

    private static final int ST_NOT_STARTED = 1;
    private static final int ST_STARTED = 2;
    private static final int ST_SHUTTING_DOWN = 3;
    private static final int ST_SHUTDOWN = 4;
    private static final int ST_TERMINATED = 5;

    private static final AtomicIntegerFieldUpdater<SingleThreadEventExecutor> STATE =
            AtomicIntegerFieldUpdater.newUpdater(SingleThreadEventExecutor.class, "state");
    private static final AtomicIntegerFieldUpdater<SingleThreadEventExecutor> LATE_SUBMITTERS =
            AtomicIntegerFieldUpdater.newUpdater(SingleThreadEventExecutor.class, "lateSubmitters");
    /** {@link #lateSubmitters} once the executor thread has taken its last task from the queue. */
    private static final int QUEUE_SEALED = -1;
    private static final AtomicIntegerFieldUpdater<SingleThreadEventExecutor> SLEEPING =
            AtomicIntegerFieldUpdater.newUpdater(SingleThreadEventExecutor.class, "sleeping");

    private final Queue<Runnable> taskQueue;
    private final Executor threadStarter;
    private final RejectedExecutionHandler rejectedHandler;
    private final UnaryOperator<Runnable> taskDecorator;
    private final int maxPendingTasks;
    private final Promise<Void> terminationFuture = new DefaultPromise<>(GlobalEventExecutor.INSTANCE);
    private final Runnable tickerListener;
    private final boolean tickerNotifies;

    private volatile int state = ST_NOT_STARTED;
    private volatile Thread thread;
    // Submitters that saw the executor shut down right after their offer and count on the final drain to
    // run their task; QUEUE_SEALED once that drain is over. Untouched by submissions before shutdown.
    private volatile int lateSubmitters;
    // Tasks found in the queue after it was sealed, each waiting for its submitter to claim and reject it.
    // Guarded by itself.
    private final ArrayList<Runnable> sealedOrphans = new ArrayList<>();
    // 1 while the executor is (about to be) parked in takeTask() or the quiet period; the first waker
    // swaps it to 0, so a burst of submissions costs one unpark, not one each.
    private volatile int sleeping;
    private volatile boolean discardPendingTasks;
    // What ended run() abnormally, if anything; executor thread only, published by the termination future.
    private Throwable terminalFailure;
    private volatile long gracefulShutdownQuietPeriodNanos;
    private volatile long gracefulShutdownTimeoutNanos;
    private volatile long gracefulShutdownStartNanos;

    // Written by the executor thread only (see LoopCounters for why they live in an object of their own).
    private final LoopCounters counters = new LoopCounters();

    /**
     * An executor whose thread comes from {@code threadFactory} ({@code null}: a {@link DefaultThreadFactory}
     * named after this class), with the system ticker, an unbounded queue, the throwing rejection handler and
     * no task decorator.
     */
    protected SingleThreadEventExecutor(EventExecutorGroup parent, ThreadFactory threadFactory) {
        this(parent, threadFactory == null ? null : new ThreadPerTaskExecutor(threadFactory), Ticker.system(),
                DEFAULT_MAX_PENDING_TASKS, RejectedExecutionHandler.REJECT, null);
    }

    /**
     * An executor with every option.
     *
     * @param parent the owning group, or {@code null}
     * @param executor starts the executor thread with {@link Executor#execute}; it must run the runnable on a
     *        new or otherwise idle thread. {@code null}: a {@link DefaultThreadFactory} named after this class
     * @param ticker the clock for scheduled tasks and the shutdown quiet period
     * @param maxPendingTasks queue capacity beyond which submissions are rejected ({@link Integer#MAX_VALUE}:
     *        unbounded); rounded up to a power of two, at least a few thousand
     * @param rejectedHandler decides the fate of refused tasks
     * @param taskDecorator applied to every task given to {@link #execute} and every task scheduled, on the
     *        submitting thread (e.g. to carry a tracing context); {@code null} for none
     * @throws IllegalArgumentException if {@code maxPendingTasks} is not positive
     */
    protected SingleThreadEventExecutor(EventExecutorGroup parent, Executor executor, Ticker ticker,
                                        int maxPendingTasks, RejectedExecutionHandler rejectedHandler,
                                        UnaryOperator<Runnable> taskDecorator) {
        super(parent, ticker);
        if (maxPendingTasks <= 0) {
            throw new IllegalArgumentException("maxPendingTasks: " + maxPendingTasks + " (expected: > 0)");
        }
        this.maxPendingTasks = maxPendingTasks;
        this.taskQueue = maxPendingTasks == Integer.MAX_VALUE
                ? Queues.newMpscQueue()
                : Queues.newMpscQueue(maxPendingTasks);
        this.threadStarter = executor != null
                ? executor
                : new ThreadPerTaskExecutor(new DefaultThreadFactory(getClass()));
        this.rejectedHandler = Objects.requireNonNull(rejectedHandler, "rejectedHandler");
        this.taskDecorator = taskDecorator;
        this.tickerListener = this::onTickerAdvance;
        this.tickerNotifies = ticker.addAdvanceListener(tickerListener);
    }

    /**
     * The event loop body, called once on the executor thread. It should repeat: wait for work (e.g.
     * {@link #takeTask()}), run tasks ({@link #runAllTasks()}), and return when {@link #confirmShutdown()}
     * returns {@code true}. If it returns or throws earlier, the executor shuts down.
     */
    protected abstract void run();

    /**
     * Releases what the subclass holds (a selector); called once on the executor thread after the last task
     * ran and before the termination future completes.
     */
    protected void cleanup() {
    }

    /**
     * Makes the executor thread notice new work. Called after a task was queued from another thread
     * ({@code inEventLoop == false}), when shutdown starts, and when the ticker advances. Must be cheap when
     * the thread is not blocked, because it runs on every foreign submission. The default unparks the
     * thread if it waits in {@link #takeTask()}; a subclass that blocks elsewhere overrides this and should
     * still call {@code super.wakeup(inEventLoop)}, which also covers the graceful-shutdown quiet period.
     */
    protected void wakeup(boolean inEventLoop) {
        if (!inEventLoop) {
            unparkIfSleeping();
        }
    }

    private void unparkIfSleeping() {
        if (sleeping != 0 && SLEEPING.getAndSet(this, 0) != 0) {
            LockSupport.unpark(thread);
        }
    }

    private void onTickerAdvance() {
        boolean inEventLoop = inEventLoop();
        wakeup(inEventLoop);
        if (!inEventLoop) {
            // A subclass's wakeup may target a selector; the quiet-period park needs an unpark too.
            unparkIfSleeping();
        }
    }

    @Override
    public boolean inEventLoop(Thread thread) {
        return thread == this.thread;
    }

    // ---------------------------------------------------------------- submission

    /**
     * Queues {@code task} to run on the executor thread, starting the thread if needed.
     *
     * <p>A submission from another thread reads the state, offers the task and reads the state again; only a
     * submission that races with shutdown does more: if the executor's last drain may have missed the task,
     * the submitter either gets it counted into one more drain or takes it back and rejects it itself. No
     * counter is written per task: on a loop fed by other threads, a shared counter would bounce its cache
     * line between the submitters and the executor on every task.
     *
     * @throws NullPointerException if {@code task} is null
     * @throws java.util.concurrent.RejectedExecutionException (by the default handler) if the executor is
     *         shut down or its bounded queue is full
     */
    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        execute0(decorateScheduled(task));
    }

    private void execute0(Runnable task) {
        if (inEventLoop()) {
            counters.selfSubmissions++;
            // The executor thread itself cannot race with its own final drain.
            if (state >= ST_SHUTDOWN || !taskQueue.offer(task)) {
                reject(task);
            }
            return;
        }
        if (state >= ST_SHUTDOWN || !taskQueue.offer(task)) {
            reject(task);
            return;
        }
        // Dekker-style pairing with doShutdownDrain(): this thread offers, then reads the state; the executor
        // publishes ST_SHUTDOWN, then polls. If this read still sees the executor running, its final drain
        // will find the task; otherwise the task may have been missed and needs the slow path.
        int s = state;
        if (s >= ST_SHUTDOWN) {
            lateSubmission(task);
            return;
        }
        if (s == ST_NOT_STARTED) {
            startThread();
        }
        wakeup(false);
    }

    /**
     * The task was offered, but the executor shut down meanwhile and may already have polled its queue for
     * the last time. Either the executor learns about this submission before it seals the queue (and then
     * drains again, so the task runs), or the queue is sealed and the task, if still there, is rejected on
     * this thread.
     */
    private void lateSubmission(Runnable task) {
        for (;;) {
            int late = lateSubmitters;
            if (late == QUEUE_SEALED) {
                break;
            }
            if (LATE_SUBMITTERS.compareAndSet(this, late, late + 1)) {
                // The executor's sealing CAS will fail on the changed count and it will drain once more.
                return;
            }
        }
        boolean mine = false;
        synchronized (sealedOrphans) {
            // No executor poll follows the seal, so the submitters holding this lock are the only consumers.
            Runnable queued;
            while ((queued = taskQueue.poll()) != null) {
                sealedOrphans.add(queued);
            }
            for (int i = sealedOrphans.size() - 1; i >= 0; i--) {
                // Identity, not equals(): the same instance may be queued by several submitters; each of them
                // takes one copy, so as many copies are rejected as were left behind.
                if (sealedOrphans.get(i) == task) {
                    sealedOrphans.remove(i);
                    mine = true;
                    break;
                }
            }
        }
        // Not found: the executor's last drain ran it (or cancelled it after shutdownNow()).
        if (mine) {
            reject(task);
        }
    }

    private void reject(Runnable task) {
        rejectedHandler.rejected(task, this);
    }

    @Override
    void enqueueScheduled(ScheduledFutureTask<?> task) {
        // Already decorated when scheduled; the queued object is the task itself so it can enter the heap.
        execute0(task);
    }

    @Override
    void enqueueRemoval(ScheduledFutureTask<?> task) {
        // A removal that misses the final drain is harmless: the heap is cleared when the executor terminates.
        if (state < ST_SHUTDOWN && taskQueue.offer(task)) {
            wakeup(false);
        }
    }

    @Override
    Runnable decorateScheduled(Runnable task) {
        UnaryOperator<Runnable> decorator = taskDecorator;
        return decorator == null ? task : Objects.requireNonNull(decorator.apply(task), "taskDecorator returned null");
    }

    @Override
    boolean decoratesTasks() {
        return taskDecorator != null;
    }

    // ---------------------------------------------------------------- helpers for run()

    /** Whether tasks wait in the task queue (scheduled tasks not counted). */
    protected final boolean hasTasks() {
        return !taskQueue.isEmpty();
    }

    /** The next queued task, or {@code null}. Executor thread only. */
    protected final Runnable pollTask() {
        Runnable task = taskQueue.poll();
        return task == null || !discardPendingTasks ? task : discardAndPoll(task);
    }

    /** After {@link #shutdownNow()}: drops {@code first} and everything queued behind it. */
    private Runnable discardAndPoll(Runnable first) {
        Runnable task = first;
        do {
            cancelIfFuture(task);
        } while ((task = taskQueue.poll()) != null);
        return null;
    }

    private static void cancelIfFuture(Runnable task) {
        if (task instanceof java.util.concurrent.Future) {
            ((java.util.concurrent.Future<?>) task).cancel(false);
        }
    }

    /**
     * Waits for the next task: a due scheduled task or a queued one. Returns {@code null} when it was woken
     * without one (shutdown started, an interrupt, a {@link #wakeup} by the subclass); callers then check
     * {@link #confirmShutdown()} and call again. Executor thread only.
     */
    protected final Runnable takeTask() {
        for (;;) {
            long delayNanos = -1;
            if (hasScheduledTasks()) {
                long now = currentTimeNanos();
                Runnable scheduled = pollScheduledTask(now);
                if (scheduled != null) {
                    return scheduled;
                }
                delayNanos = nextScheduledTaskDelayNanos(now);
            }
            Runnable task = pollTask();
            if (task != null) {
                return task;
            }
            if (state >= ST_SHUTTING_DOWN) {
                return null;
            }
            sleepUntilWork(delayNanos, true);
            if (Thread.interrupted()) {
                // An interrupt would make every later park return at once; report it as a plain wake-up.
                return null;
            }
            if (delayNanos < 0 && taskQueue.isEmpty() && !hasScheduledTasks()) {
                return null;
            }
        }
    }

    /**
     * Parks until a task is queued, {@code delayNanos} pass ({@code < 0}: no limit) or a wake-up arrives.
     * The volatile write of {@code sleeping} followed by the re-check of the queue pairs with the
     * submitter's offer followed by its read of {@code sleeping}: one of the two always sees the other.
     */
    private void sleepUntilWork(long delayNanos, boolean stopOnShutdown) {
        sleeping = 1;
        try {
            if (!taskQueue.isEmpty() || stopOnShutdown && state >= ST_SHUTTING_DOWN) {
                return;
            }
            if (delayNanos < 0) {
                LockSupport.park(this);
            } else if (delayNanos > 0) {
                LockSupport.parkNanos(this, delayNanos);
            }
        } finally {
            sleeping = 0;
        }
    }

    /**
     * Runs a task on the executor thread, logging what it throws, and counts it in the metrics. Executor
     * thread only.
     */
    protected final void runTask(Runnable task) {
        if (counters.tasksRunThisIteration == 0) {
            // The quiet period counts from when the iteration's first task started, not from when the
            // iteration ended: by the end, time may have moved (a ManualTicker advanced by a thread that saw
            // the task complete), and stamping that later time would restart a quiet period that had begun.
            // One clock read per iteration, as before.
            counters.iterationStartNanos = currentTimeNanos();
        }
        if (TaskTiming.isEnabled()) {
            timedExecute(task);
        } else {
            safeExecute(task);
        }
        counters.tasksRunThisIteration++;
        counters.totalTasksRun++;
    }

    /**
     * Runs the scheduled tasks that are due and the tasks queued when this call started (tasks they submit
     * wait for the next call, so a task that re-submits itself cannot starve the loop). Ends a metrics
     * iteration. Executor thread only.
     *
     * @return whether at least one task ran
     */
    protected final boolean runAllTasks() {
        int before = counters.tasksRunThisIteration;
        runDueScheduledTasks();
        runQueuedTasks(taskQueue.size(), Long.MAX_VALUE, false);
        return endIteration(before);
    }

    /**
     * Like {@link #runAllTasks()}, but stops once {@code timeoutNanos} (by the ticker) have passed, checking
     * the clock every {@value #TASKS_BETWEEN_DEADLINE_CHECKS} tasks; and within that budget it also runs the
     * tasks other threads queue meanwhile, as long as no task of this call submitted one itself (those still
     * wait for the next call). A loop fed by other threads thus drains a burst in one go instead of paying a
     * poll for I/O every few tasks, while a task that re-submits itself still cannot starve I/O. Executor
     * thread only.
     *
     * @return whether at least one task ran
     */
    protected final boolean runAllTasks(long timeoutNanos) {
        int before = counters.tasksRunThisIteration;
        runDueScheduledTasks();
        // The queue's length is read once per call: it reads the index every submitter writes.
        int queued = taskQueue.size();
        if (queued != 0) {
            // The clock is read only when there is work: an I/O-bound loop comes here empty on most turns.
            runQueuedTasks(queued, deadlineNanos(currentTimeNanos(), Math.max(0, timeoutNanos)), true);
        }
        return endIteration(before);
    }

    /**
     * Runs the {@code queued} tasks that were in the queue, like {@link #runTask} each, then, if
     * {@code takeNewcomers}, the tasks queued since, until the queue is empty or a task run here has submitted
     * one from this thread; stops early once {@code deadline} has passed, checking the clock every
     * {@value #TASKS_BETWEEN_DEADLINE_CHECKS} tasks and before the first newcomer. Counts in locals and writes
     * the counters once.
     */
    private void runQueuedTasks(int queued, long deadline, boolean takeNewcomers) {
        LoopCounters c = counters;
        int selfSubmitted = c.selfSubmissions;
        // Read once per batch: a volatile read per task would cost more than the feature is worth while off.
        boolean timed = TaskTiming.isEnabled();
        int ran = 0;
        for (;;) {
            if (ran >= queued && (!takeNewcomers || c.selfSubmissions != selfSubmitted
                    || ran == queued && currentTimeNanos() >= deadline)) {
                break;
            }
            Runnable task = pollTask();
            if (task == null) {
                break;
            }
            if (ran == 0 && c.tasksRunThisIteration == 0) {
                c.iterationStartNanos = currentTimeNanos();
            }
            if (timed) {
                timedExecute(task);
            } else {
                safeExecute(task);
            }
            ran++;
            if (ran % TASKS_BETWEEN_DEADLINE_CHECKS == 0 && deadline != Long.MAX_VALUE
                    && currentTimeNanos() >= deadline) {
                break;
            }
        }
        if (ran != 0) {
            c.tasksRunThisIteration += ran;
            c.totalTasksRun += ran;
        }
    }

    /**
     * Runs {@code task} like {@code safeExecute}, timed by the system clock (not the ticker: a manual ticker does not
     * move while a task runs): keeps the longest time, counts and reports a slow task ({@link TaskTiming}).
     */
    private void timedExecute(Runnable task) {
        long start = System.nanoTime();
        safeExecute(task);
        long took = System.nanoTime() - start;
        LoopCounters c = counters;
        if (took > c.longestTaskNanos) {
            c.longestTaskNanos = took;
        }
        if (took >= TaskTiming.slowTaskThresholdNanos()) {
            c.slowTasks++;
            WeirEvents.slowTask(task, took);
        }
    }

    private void runDueScheduledTasks() {
        if (!hasScheduledTasks()) {
            return;
        }
        long now = currentTimeNanos();
        Runnable task;
        while ((task = pollScheduledTask(now)) != null) {
            runTask(task);
        }
    }

    private boolean endIteration(int before) {
        int ran = counters.tasksRunThisIteration;
        // Idle iterations write nothing: these fields sit near what submitters read on every execute().
        if (counters.tasksRunLastIteration != ran) {
            counters.tasksRunLastIteration = ran;
        }
        if (ran > 0) {
            counters.tasksRunThisIteration = 0;
            counters.lastExecutionNanos = counters.iterationStartNanos;
        }
        return ran > before;
    }

    /**
     * Called by {@link #run()} on each turn: returns {@code false} while the executor should keep running,
     * {@code true} once the loop should return. While shutting down it cancels scheduled tasks, runs queued
     * tasks and waits out the quiet period (blocking up to 100 ms per
     * call, woken by new tasks). Executor thread only.
     *
     * @throws IllegalStateException if called from another thread
     */
    protected final boolean confirmShutdown() {
        if (state < ST_SHUTTING_DOWN) {
            return false;
        }
        if (!inEventLoop()) {
            throw new IllegalStateException("confirmShutdown() must be called from the executor thread");
        }
        cancelScheduledTasks();
        boolean ran = discardPendingTasks ? discardQueuedTasks() : runAllTasks();
        long quietPeriod = gracefulShutdownQuietPeriodNanos;
        long now = currentTimeNanos();
        if (state >= ST_SHUTDOWN || now - gracefulShutdownStartNanos > gracefulShutdownTimeoutNanos) {
            return true;
        }
        if (ran) {
            // Tasks keep arriving: the quiet period starts again, unless there is none.
            return quietPeriod == 0;
        }
        long quietSoFar = now - counters.lastExecutionNanos;
        if (quietSoFar < quietPeriod) {
            sleepUntilWork(Math.min(quietPeriod - quietSoFar + 1, SHUTDOWN_POLL_INTERVAL_NANOS), false);
            Thread.interrupted();
            return false;
        }
        return true;
    }

    private boolean discardQueuedTasks() {
        boolean any = false;
        Runnable task;
        while ((task = taskQueue.poll()) != null) {
            any = true;
            cancelIfFuture(task);
        }
        return any;
    }

    // ---------------------------------------------------------------- thread life cycle

    private void startThread() {
        if (state == ST_NOT_STARTED && STATE.compareAndSet(this, ST_NOT_STARTED, ST_STARTED)) {
            boolean started = false;
            try {
                doStartThread();
                started = true;
            } finally {
                if (!started) {
                    STATE.compareAndSet(this, ST_STARTED, ST_NOT_STARTED);
                }
            }
        }
    }

    private void doStartThread() {
        threadStarter.execute(this::runThread);
    }

    private void runThread() {
        thread = Thread.currentThread();
        counters.lastExecutionNanos = currentTimeNanos();
        try {
            run();
        } catch (Throwable t) {
            // The executor cannot go on: it still shuts down in order below (a subclass's cleanup() closes
            // what it holds), and its termination future fails with this cause so that the group, and whoever
            // watches it, learns that it died rather than stopped.
            terminalFailure = t;
            LOGGER.log(Level.ERROR, "An event executor stopped after an unexpected exception: ", this, t);
        } finally {
            for (;;) {
                int s = state;
                if (s >= ST_SHUTTING_DOWN || STATE.compareAndSet(this, s, ST_SHUTTING_DOWN)) {
                    break;
                }
            }
            try {
                while (!confirmShutdown()) {
                    // A run() that returned early still honours the graceful shutdown contract.
                }
                for (;;) {
                    int s = state;
                    if (s >= ST_SHUTDOWN || STATE.compareAndSet(this, s, ST_SHUTDOWN)) {
                        break;
                    }
                }
                doShutdownDrain();
            } finally {
                terminate();
            }
        }
    }

    /**
     * The last drains, after ST_SHUTDOWN is published: each new submission is refused by its state check, and
     * a submission that had passed it either is found by a drain here or, once the queue is sealed, rejects
     * its own task (see lateSubmission()).
     */
    private void doShutdownDrain() {
        boolean discard = discardPendingTasks;
        // Read before draining: a late submitter that counts itself after this read makes the sealing CAS
        // fail, and one that counted itself before has already offered, so this drain finds its task.
        int late = lateSubmitters;
        for (;;) {
            Runnable task;
            while ((task = taskQueue.poll()) != null) {
                if (discard) {
                    cancelIfFuture(task);
                } else {
                    runTask(task);
                }
            }
            if (LATE_SUBMITTERS.compareAndSet(this, late, QUEUE_SEALED)) {
                break;
            }
            late = lateSubmitters;
        }
        counters.tasksRunLastIteration = counters.tasksRunThisIteration;
        counters.tasksRunThisIteration = 0;
    }

    private void terminate() {
        try {
            cancelScheduledTasks();
            cleanup();
        } catch (Throwable t) {
            LOGGER.log(Level.WARNING, "Exception while cleaning up an event executor: ", this, t);
        } finally {
            if (tickerNotifies) {
                ticker().removeAdvanceListener(tickerListener);
            }
            FastThreadLocal.removeAll();
            STATE.set(this, ST_TERMINATED);
            Throwable failure = terminalFailure;
            if (failure == null) {
                terminationFuture.trySuccess(null);
            } else {
                terminationFuture.tryFailure(failure);
            }
        }
    }

    // ---------------------------------------------------------------- shutdown API

    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit");
        if (quietPeriod < 0) {
            throw new IllegalArgumentException("quietPeriod: " + quietPeriod + " (expected: >= 0)");
        }
        if (timeout < quietPeriod) {
            throw new IllegalArgumentException(
                    "timeout: " + timeout + " (expected: >= quietPeriod (" + quietPeriod + "))");
        }
        if (state >= ST_SHUTTING_DOWN) {
            return terminationFuture;
        }
        gracefulShutdownQuietPeriodNanos = unit.toNanos(quietPeriod);
        gracefulShutdownTimeoutNanos = unit.toNanos(timeout);
        // The timeout counts from this call, not from whenever the executor thread notices it.
        gracefulShutdownStartNanos = currentTimeNanos();
        return advanceState(ST_SHUTTING_DOWN);
    }

    /** {@inheritDoc} Tasks queued before this call still run. */
    @Override
    public void shutdown() {
        advanceState(ST_SHUTDOWN);
    }

    /**
     * Like {@link #shutdown()}, but queued tasks are discarded: those that are futures (from
     * {@code submit}/{@code schedule}) are cancelled, plain runnables are dropped.
     *
     * @return an empty list: only the executor thread may take tasks out of its queue
     */
    @Override
    public List<Runnable> shutdownNow() {
        discardPendingTasks = true;
        advanceState(ST_SHUTDOWN);
        return Collections.emptyList();
    }

    private Future<?> advanceState(int newState) {
        int oldState;
        for (;;) {
            oldState = state;
            if (oldState >= newState) {
                return terminationFuture;
            }
            if (STATE.compareAndSet(this, oldState, newState)) {
                break;
            }
        }
        if (oldState == ST_NOT_STARTED) {
            try {
                doStartThread();
            } catch (Throwable t) {
                // No executor thread will ever drain the queue: late submitters must reject their own tasks.
                LATE_SUBMITTERS.set(this, QUEUE_SEALED);
                STATE.set(this, ST_TERMINATED);
                terminationFuture.tryFailure(t);
                throw t;
            }
        } else {
            boolean inEventLoop = inEventLoop();
            wakeup(inEventLoop);
            if (!inEventLoop) {
                // The subclass's wakeup may target a selector; the quiet-period park needs an unpark too.
                unparkIfSleeping();
            }
        }
        return terminationFuture;
    }

    @Override
    public Future<?> terminationFuture() {
        return terminationFuture;
    }

    @Override
    public boolean isShuttingDown() {
        return state >= ST_SHUTTING_DOWN;
    }

    @Override
    public boolean isShutdown() {
        return state >= ST_SHUTDOWN;
    }

    @Override
    public boolean isTerminated() {
        return state == ST_TERMINATED;
    }

    /**
     * Waits for termination.
     *
     * @throws IllegalStateException if called from the executor thread, which can never see itself terminate
     */
    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit");
        if (inEventLoop()) {
            throw new IllegalStateException("cannot await termination of the current thread");
        }
        terminationFuture.await(timeout, unit);
        return isTerminated();
    }

    // ---------------------------------------------------------------- metrics

    /** Tasks waiting in the queue (not counting scheduled tasks that are not due); any thread, approximate. */
    public int pendingTasks() {
        return taskQueue.size();
    }

    /** The queue capacity beyond which submissions are rejected ({@link Integer#MAX_VALUE}: unbounded). */
    public int maxPendingTasks() {
        return maxPendingTasks;
    }

    /** Tasks the most recent {@link #runAllTasks()} iteration ran (including the task taken before it). */
    public int tasksRunLastIteration() {
        return counters.tasksRunLastIteration;
    }

    /** Tasks run since the executor started. Best effort from other threads. */
    public long totalTasksRun() {
        return counters.totalTasksRun;
    }

    /**
     * The longest task run since the executor started, in nanoseconds; only tasks run while {@link TaskTiming} is
     * on are timed (0 until then). Best effort from other threads.
     */
    public long longestTaskNanos() {
        return counters.longestTaskNanos;
    }

    /**
     * Tasks that ran {@link TaskTiming#slowTaskThresholdNanos()} or longer while {@link TaskTiming} was on. Best
     * effort from other threads.
     */
    public long slowTasks() {
        return counters.slowTasks;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + '@' + Integer.toHexString(hashCode()) + "(state: " + state + ')';
    }

    /**
     * The executor thread's bookkeeping, in an object of its own. The loop writes it on every batch of tasks;
     * among the executor's fields it would share a cache line with {@code state}, {@code thread} or
     * {@code sleeping}, which every submission from another thread reads, and each batch would then cost the
     * next submitter a cache miss. Padded on both sides (superclass fields are laid out first, subclass fields
     * last), because the collector may move it next to the executor.
     */
    static final class LoopCounters extends LoopCountersFields {
        long padAfter1, padAfter2, padAfter3, padAfter4, padAfter5, padAfter6, padAfter7, padAfter8;
    }

    abstract static class LoopCountersFields extends LoopCountersPadding {
        long lastExecutionNanos;
        long iterationStartNanos;
        // Also read by other threads, best effort.
        long totalTasksRun;
        // Written only while TaskTiming is on; also read by other threads, best effort.
        long longestTaskNanos;
        long slowTasks;
        int tasksRunThisIteration;
        // Also read by other threads, best effort.
        int tasksRunLastIteration;
        // Submissions made on the executor thread; runAllTasks(long) stops taking newcomers once one happened.
        int selfSubmissions;
    }

    abstract static class LoopCountersPadding {
        long padBefore1, padBefore2, padBefore3, padBefore4, padBefore5, padBefore6, padBefore7, padBefore8;
    }

    /** Starts one new thread per task; used to start the single executor thread. */
    private static final class ThreadPerTaskExecutor implements Executor {
        private final ThreadFactory threadFactory;

        ThreadPerTaskExecutor(ThreadFactory threadFactory) {
            this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        }

        @Override
        public void execute(Runnable command) {
            threadFactory.newThread(command).start();
        }
    }
}
