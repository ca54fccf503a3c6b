package io.weir.util;

import io.weir.util.concurrent.DefaultThreadFactory;
import io.weir.util.concurrent.FastThreadLocal;
import io.weir.util.platform.LoopLogger;
import io.weir.util.platform.Queues;
import java.lang.System.Logger.Level;
import java.util.Collections;
import java.util.HashSet;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Timer} for very many short, mostly cancelled timeouts (I/O and idle timeouts): a wheel of
 * buckets swept once per tick by one worker thread, so scheduling and cancelling are O(1) and the
 * precision is one tick.
 *
 * <p>A timeout due in {@code d} goes to bucket {@code (d / tick) mod ticksPerWheel} with
 * {@code (d / tick) / ticksPerWheel} full rounds to wait. New timeouts reach the worker through an MPSC
 * queue and are placed on its next tick; cancelled ones are unlinked from their bucket on the next tick.
 * Tasks run on the worker thread unless an {@link Executor} is given, so a slow task delays the others.
 *
 * <p>The worker starts with the first {@link #newTimeout} and ends with {@link #stop()}, which must be
 * called when the timer is no longer needed: every running instance holds a thread, and a warning is
 * logged when more than {@value #INSTANCE_COUNT_WARNING_THRESHOLD} run at once. Time comes from a
 * {@link Ticker}, so tests can drive it with {@link Ticker#manual()}. Thread-safe.
 */
public final class HashedWheelTimer implements Timer {
    /** Default tick duration, in milliseconds. */
    public static final long DEFAULT_TICK_DURATION_MILLIS = 100;
    /** Default number of buckets. */
    public static final int DEFAULT_TICKS_PER_WHEEL = 512;
    /** Largest number of buckets. */
    public static final int MAX_TICKS_PER_WHEEL = 1 << 30;
    /** Shortest tick: shorter ones are raised to this, so an idle worker never spins. */
    public static final long MIN_TICK_DURATION_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Running instances beyond which a warning is logged (once per JVM). */
    public static final int INSTANCE_COUNT_WARNING_THRESHOLD = 64;
    /** New timeouts moved from the queue into the wheel per tick, so a flood cannot stall expiry. */
    static final int MAX_TIMEOUTS_TRANSFERRED_PER_TICK = 100_000;

    private static final LoopLogger LOGGER = LoopLogger.of(HashedWheelTimer.class);
    private static final AtomicInteger RUNNING_INSTANCES = new AtomicInteger();
    private static final AtomicBoolean WARNED_TOO_MANY_INSTANCES = new AtomicBoolean();
    private static final int STATE_INIT = 0;
    private static final int STATE_STARTED = 1;
    private static final int STATE_SHUTDOWN = 2;

    private final long tickDurationNanos;
    private final HashedWheelBucket[] wheel;
    private final int mask;
    private final Ticker ticker;
    private final Executor taskExecutor;
    private final long maxPendingTimeouts;
    private final Thread workerThread;
    private final AtomicInteger state = new AtomicInteger(STATE_INIT);
    private final AtomicLong pendingTimeouts = new AtomicLong();
    private final Queue<HashedWheelTimeout> timeouts = Queues.newMpscQueue();
    private final Queue<HashedWheelTimeout> cancelledTimeouts = Queues.newMpscQueue();
    private final CountDownLatch startTimeInitialized = new CountDownLatch(1);
    private final Set<Timeout> unprocessedTimeouts = new HashSet<>();
    // Written by the worker before startTimeInitialized opens; read by others after awaiting it.
    private volatile long startTime;
    // Worker thread only.
    private long tick;

    /** A timer with the defaults of {@link Builder}. */
    public HashedWheelTimer() {
        this(builder());
    }

    private HashedWheelTimer(Builder b) {
        this.tickDurationNanos = Math.max(b.tickDurationNanos, MIN_TICK_DURATION_NANOS);
        int ticksPerWheel = b.ticksPerWheel <= 1 ? 1 : Integer.highestOneBit(b.ticksPerWheel - 1) << 1;
        if (tickDurationNanos >= Long.MAX_VALUE / ticksPerWheel) {
            throw new IllegalArgumentException("tickDuration: " + tickDurationNanos + " ns (expected: < "
                    + Long.MAX_VALUE / ticksPerWheel + " ns for " + ticksPerWheel + " ticks per wheel)");
        }
        this.wheel = new HashedWheelBucket[ticksPerWheel];
        for (int i = 0; i < ticksPerWheel; i++) {
            wheel[i] = new HashedWheelBucket();
        }
        this.mask = ticksPerWheel - 1;
        this.ticker = b.ticker;
        this.taskExecutor = b.taskExecutor;
        this.maxPendingTimeouts = b.maxPendingTimeouts;
        ThreadFactory factory = b.threadFactory != null
                ? b.threadFactory
                : new DefaultThreadFactory("hashedWheelTimer", true);
        this.workerThread = Objects.requireNonNull(factory.newThread(this::runWorker), "threadFactory.newThread");
    }

    /** A builder with the defaults: 100 ms ticks, 512 buckets, a daemon worker, system time, no pending limit. */
    public static Builder builder() {
        return new Builder();
    }

    /** Timers whose worker thread is running, in this JVM. */
    static int runningInstances() {
        return RUNNING_INSTANCES.get();
    }

    /** The number of timeouts neither expired nor cancelled. */
    public long pendingTimeouts() {
        return pendingTimeouts.get();
    }

    /** The tick duration in nanoseconds, after rounding up to {@link #MIN_TICK_DURATION_NANOS}. */
    public long tickDurationNanos() {
        return tickDurationNanos;
    }

    /** The number of buckets, a power of two. */
    public int ticksPerWheel() {
        return wheel.length;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Starts the worker on first use. A timeout added while another thread stops the timer is cancelled
     * and this method throws {@link IllegalStateException}.
     */
    @Override
    public Timeout newTimeout(TimerTask task, long delay, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(unit, "unit");
        long pending = pendingTimeouts.incrementAndGet();
        if (maxPendingTimeouts > 0 && pending > maxPendingTimeouts) {
            pendingTimeouts.decrementAndGet();
            throw new RejectedExecutionException("pending timeouts (" + pending
                    + ") would exceed maxPendingTimeouts (" + maxPendingTimeouts + ")");
        }
        try {
            start();
        } catch (RuntimeException | Error e) {
            pendingTimeouts.decrementAndGet();
            throw e;
        }
        long delayNanos = unit.toNanos(delay);
        long deadline = elapsedNanos() + delayNanos;
        if (delayNanos > 0 && deadline < 0) {
            deadline = Long.MAX_VALUE;
        }
        HashedWheelTimeout timeout = new HashedWheelTimeout(this, task, deadline);
        timeouts.add(timeout);
        if (state.get() == STATE_SHUTDOWN && timeout.cancel()) {
            throw new IllegalStateException("cannot add a timeout: the timer was stopped meanwhile");
        }
        return timeout;
    }

    private void start() {
        switch (state.get()) {
            case STATE_INIT:
                if (state.compareAndSet(STATE_INIT, STATE_STARTED)) {
                    int running = RUNNING_INSTANCES.incrementAndGet();
                    if (running > INSTANCE_COUNT_WARNING_THRESHOLD
                            && WARNED_TOO_MANY_INSTANCES.compareAndSet(false, true)) {
                        LOGGER.log(Level.WARNING, running + " HashedWheelTimer instances are running; each holds a "
                                + "thread. Share one timer per application and stop() timers you no longer need.");
                    }
                    workerThread.start();
                }
                break;
            case STATE_STARTED:
                break;
            default:
                throw new IllegalStateException("cannot add a timeout: the timer was stopped");
        }
        boolean interrupted = false;
        while (startTimeInitialized.getCount() != 0) {
            try {
                startTimeInitialized.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public Set<Timeout> stop() {
        if (Thread.currentThread() == workerThread) {
            throw new IllegalStateException(
                    "HashedWheelTimer.stop() cannot be called from a TimerTask on its own worker");
        }
        if (!state.compareAndSet(STATE_STARTED, STATE_SHUTDOWN)) {
            if (state.getAndSet(STATE_SHUTDOWN) == STATE_INIT) {
                return Collections.emptySet();
            }
            // Stopped already by another call; wait for the worker like it did, then report the same set.
        }
        boolean interrupted = false;
        while (workerThread.isAlive()) {
            workerThread.interrupt();
            try {
                workerThread.join(100);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        synchronized (unprocessedTimeouts) {
            return Set.copyOf(unprocessedTimeouts);
        }
    }

    /** Nanoseconds since the worker started (0 before it started). */
    long elapsedNanos() {
        return startTimeInitialized.getCount() == 0 ? ticker.nanoTime() - startTime : 0;
    }

    void onCancelled(HashedWheelTimeout timeout) {
        pendingTimeouts.decrementAndGet();
        // The worker unlinks it from its bucket on the next tick; if still queued, placement skips it.
        cancelledTimeouts.add(timeout);
    }

    void onExpired(HashedWheelTimeout timeout) {
        pendingTimeouts.decrementAndGet();
        try {
            taskExecutor.execute(timeout);
        } catch (Throwable t) {
            LOGGER.log(Level.WARNING, "the task executor refused ", timeout, t);
        }
    }

    private void runWorker() {
        try {
            startTime = ticker.nanoTime();
            startTimeInitialized.countDown();
            while (state.get() == STATE_STARTED) {
                long now = waitForNextTick();
                if (now < 0) {
                    break;
                }
                HashedWheelBucket bucket = wheel[(int) (tick & mask)];
                removeCancelledTimeouts();
                transferTimeoutsToBuckets();
                bucket.expireTimeouts();
                tick++;
            }
            synchronized (unprocessedTimeouts) {
                for (HashedWheelBucket bucket : wheel) {
                    bucket.drainPending(unprocessedTimeouts);
                }
                for (HashedWheelTimeout timeout; (timeout = timeouts.poll()) != null; ) {
                    if (timeout.isPending()) {
                        unprocessedTimeouts.add(timeout);
                    }
                }
            }
            cancelledTimeouts.clear();
        } finally {
            RUNNING_INSTANCES.decrementAndGet();
            // The worker may be a plain Thread that would keep FastThreadLocal values set by tasks forever.
            FastThreadLocal.removeAll();
        }
    }

    /**
     * Sleeps until the end of the current tick.
     *
     * @return the time since start, or -1 when interrupted by {@link #stop()}
     */
    private long waitForNextTick() {
        long deadline = tickDurationNanos * (tick + 1);
        for (;;) {
            long now = ticker.nanoTime() - startTime;
            long sleepNanos = deadline - now;
            if (sleepNanos <= 0) {
                return now;
            }
            try {
                // Absolute: time may have moved since `now` was read (a ManualTicker advanced meanwhile), and a
                // relative sleep would then overshoot the tick and wait for an advance that never comes.
                ticker.sleepUntil(startTime + deadline);
            } catch (InterruptedException e) {
                if (state.get() == STATE_SHUTDOWN) {
                    return -1;
                }
                // A stray interrupt from a task: keep ticking.
            }
        }
    }

    private void removeCancelledTimeouts() {
        for (HashedWheelTimeout timeout; (timeout = cancelledTimeouts.poll()) != null; ) {
            HashedWheelBucket bucket = timeout.bucket;
            if (bucket != null) {
                bucket.remove(timeout);
            }
        }
    }

    private void transferTimeoutsToBuckets() {
        for (int i = 0; i < MAX_TIMEOUTS_TRANSFERRED_PER_TICK; i++) {
            HashedWheelTimeout timeout = timeouts.poll();
            if (timeout == null) {
                return;
            }
            if (!timeout.isPending()) {
                continue;
            }
            long dueTick = timeout.deadline / tickDurationNanos;
            timeout.remainingRounds = (dueTick - tick) / wheel.length;
            // A timeout already overdue goes into the current bucket, which is swept right after this.
            long placedTick = Math.max(dueTick, tick);
            wheel[(int) (placedTick & mask)].add(timeout);
        }
    }

    @Override
    public String toString() {
        return "HashedWheelTimer(tick: " + tickDurationNanos + " ns, wheel: " + wheel.length + ", pending: "
                + pendingTimeouts.get() + ", state: " + new String[] {"init", "started", "stopped"}[state.get()] + ')';
    }

    /** Configures a {@link HashedWheelTimer}. Not thread-safe; {@link #build()} may be called repeatedly. */
    public static final class Builder {
        private long tickDurationNanos = TimeUnit.MILLISECONDS.toNanos(DEFAULT_TICK_DURATION_MILLIS);
        private int ticksPerWheel = DEFAULT_TICKS_PER_WHEEL;
        private ThreadFactory threadFactory;
        private Ticker ticker = Ticker.system();
        private Executor taskExecutor = Runnable::run;
        private long maxPendingTimeouts = -1;

        private Builder() {
        }

        /**
         * The precision of the timer (default {@value #DEFAULT_TICK_DURATION_MILLIS} ms); values below 1 ms
         * are raised to 1 ms.
         *
         * @throws IllegalArgumentException if not positive
         */
        public Builder tickDuration(long duration, TimeUnit unit) {
            Objects.requireNonNull(unit, "unit");
            if (duration <= 0) {
                throw new IllegalArgumentException("tickDuration: " + duration + ' ' + unit + " (expected: > 0)");
            }
            this.tickDurationNanos = unit.toNanos(duration);
            return this;
        }

        /**
         * The number of buckets (default {@value #DEFAULT_TICKS_PER_WHEEL}), rounded up to a power of two.
         *
         * @throws IllegalArgumentException if not in {@code [1, MAX_TICKS_PER_WHEEL]}
         */
        public Builder ticksPerWheel(int ticksPerWheel) {
            if (ticksPerWheel < 1 || ticksPerWheel > MAX_TICKS_PER_WHEEL) {
                throw new IllegalArgumentException("ticksPerWheel: " + ticksPerWheel + " (expected: 1.."
                        + MAX_TICKS_PER_WHEEL + ")");
            }
            this.ticksPerWheel = ticksPerWheel;
            return this;
        }

        /** Makes the worker thread (default: daemon threads named {@code hashedWheelTimer-…}). */
        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
            return this;
        }

        /** The source of time (default {@link Ticker#system()}). */
        public Builder ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /**
         * Where expired tasks run (default: on the worker thread). The executor must not block; if it throws,
         * the task is dropped and a warning logged.
         */
        public Builder taskExecutor(Executor taskExecutor) {
            this.taskExecutor = Objects.requireNonNull(taskExecutor, "taskExecutor");
            return this;
        }

        /**
         * The most timeouts pending at once; {@link Timer#newTimeout} throws
         * {@link RejectedExecutionException} beyond it. Zero or negative (the default): no limit.
         */
        public Builder maxPendingTimeouts(long maxPendingTimeouts) {
            this.maxPendingTimeouts = maxPendingTimeouts;
            return this;
        }

        /** A new timer; its worker starts with the first timeout. */
        public HashedWheelTimer build() {
            return new HashedWheelTimer(this);
        }
    }
}
