package io.weir.channel.internal;

import io.weir.channel.EventLoop;
import io.weir.channel.IoHandler;
import io.weir.channel.IoHandlerContext;
import io.weir.util.Ticker;
import io.weir.util.concurrent.AbstractScheduledEventExecutor;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The waiting half of an {@link IoHandler} that collects readiness with one system call taking a timeout
 * ({@code epoll_wait}, {@code kevent}): when to wait without blocking, the opt-in {@link IdlePoll} before a
 * blocking wait, and the wake-up flag. For handler implementations: the epoll and kqueue handlers delegate their
 * {@link IoHandler#run} and {@link IoHandler#wakeup()} to one, and give it their system calls as {@link Waits}.
 *
 * <p><b>A run.</b> {@link #run} waits without blocking when the loop has tasks queued or a scheduled task is due;
 * otherwise, if its idle poll allows, it polls ({@link Waits#waitNow()} over and over) for up to the poll's length
 * or until the deadline, and then blocks ({@link Waits#waitBlocking}) until readiness, a wake-up or the deadline.
 * It then hands what the wait collected to {@link Waits#processReady} and tells the idle poll how the wait ended.
 *
 * <p><b>Wake-ups: the simple race.</b> The loop never wakes itself; other threads call {@link #wakeup()} after
 * queueing a task. A flag is armed just before the loop looks at its task queue for the last time (in
 * {@link IoHandlerContext#canBlock()}); a waker calls {@link Waits#signalWakeup()} only if it is the one that
 * consumes the flag, so a burst of submissions costs one signal, and a loop that decided not to block costs none.
 * Either the loop's re-check after arming sees the new task, or the waker sees the armed flag and its signal ends
 * the wait (or the poll, which finds the signal like any readiness).
 */
public final class PollingWait {
    /** A handler's system calls, for its {@link PollingWait}. Loop thread only, but for {@link #signalWakeup()}. */
    public interface Waits {
        /**
         * Collects what is ready without blocking.
         *
         * @return how many events the wait collected, 0 if none (or the call failed and was logged)
         */
        int waitNow();

        /**
         * Blocks until readiness, a wake-up signal or {@code delayNanos} after {@code nowNanos}
         * ({@link Long#MAX_VALUE}: no deadline).
         *
         * @param nowNanos the loop's time ({@link PollingWait#ticker()}) the delay counts from
         * @param delayNanos positive
         * @return how many events the wait collected, 0 if none
         */
        int waitBlocking(long nowNanos, long delayNanos);

        /**
         * Dispatches the {@code ready} events the last wait collected (positive).
         *
         * @return how many handles heard an event (the wake-up signal and timers not counted)
         */
        int processReady(int ready);

        /** Called after {@code ready} events were processed: a handler whose event array filled up may grow it. */
        void afterProcessing(int ready);

        /** Ends the current or next blocking wait: the handler's own signal (an eventfd write, a user event). */
        void signalWakeup();
    }

    private static final AtomicIntegerFieldUpdater<PollingWait> WAKEUP_ARMED =
            AtomicIntegerFieldUpdater.newUpdater(PollingWait.class, "wakeupArmed");

    private final Waits waits;
    private final Ticker ticker;
    private final IdlePoll idlePoll;
    // Loop thread only, set by waitForEvents for run(): how long the wait blocked (-1: it did not), and whether
    // an idle poll found the events.
    private long blockedNanos = -1;
    private boolean pollFound;
    // 1 from just before the loop's last look at its task queue until a waker consumes it or the wait returns.
    private volatile int wakeupArmed;

    /**
     * @param loop the handler's event loop
     * @param maxIdlePollNanos the longest idle poll before a blocking wait; 0 turns polling off
     * @param waits the handler's system calls
     * @throws IllegalArgumentException if {@code maxIdlePollNanos} is negative
     */
    public PollingWait(EventLoop loop, long maxIdlePollNanos, Waits waits) {
        this.waits = waits;
        this.idlePoll = new IdlePoll(maxIdlePollNanos);
        this.ticker = loop instanceof AbstractScheduledEventExecutor
                ? ((AbstractScheduledEventExecutor) loop).ticker()
                : Ticker.system();
    }

    /** The loop's clock: deadlines come in its time, and with a manual ticker only move when a test says so. */
    public Ticker ticker() {
        return ticker;
    }

    /** One {@link IoHandler#run}: waits as the class comment says, then dispatches what the wait collected. */
    public int run(IoHandlerContext context) {
        blockedNanos = -1;
        pollFound = false;
        int ready = waitForEvents(context);
        if (ready <= 0) {
            context.reportActiveIoTime(0);
            idlePoll.runEnded(blockedNanos, pollFound, 0);
            return 0;
        }
        long start = System.nanoTime();
        int handled = waits.processReady(ready);
        context.reportActiveIoTime(System.nanoTime() - start);
        idlePoll.runEnded(blockedNanos, pollFound, handled);
        waits.afterProcessing(ready);
        return handled;
    }

    private int waitForEvents(IoHandlerContext context) {
        // Armed before the loop looks at its queue (in canBlock()), so a task that check misses comes with a
        // wakeup() that finds the flag set.
        WAKEUP_ARMED.set(this, 1);
        if (!context.canBlock()) {
            WAKEUP_ARMED.lazySet(this, 0);
            return waits.waitNow();
        }
        long now = ticker.nanoTime();
        long delayNanos = context.delayNanos(now);
        long poll = idlePoll.nanos();
        if (poll > 0 && delayNanos > 0) {
            // Still armed: a task queued meanwhile signals, which the poll finds like any readiness.
            int ready = idlePoll(Math.min(poll, delayNanos));
            if (ready > 0) {
                pollFound = true;
                WAKEUP_ARMED.lazySet(this, 0);
                return ready;
            }
            now = ticker.nanoTime();
            delayNanos = context.delayNanos(now);
        }
        if (delayNanos <= 0) {
            WAKEUP_ARMED.lazySet(this, 0);
            return waits.waitNow();
        }
        long blockedAt = System.nanoTime();
        int ready = waits.waitBlocking(now, delayNanos);
        blockedNanos = System.nanoTime() - blockedAt;
        // A stale 1 would only cost a later waker one redundant signal; no fence needed.
        WAKEUP_ARMED.lazySet(this, 0);
        return ready;
    }

    /** Polls for readiness for about {@code nanos} (positive); the events collected, 0 if none turned up. */
    private int idlePoll(long nanos) {
        long start = System.nanoTime();
        do {
            int ready = waits.waitNow();
            if (ready > 0) {
                return ready;
            }
            Thread.onSpinWait();
        } while (System.nanoTime() - start < nanos);
        return 0;
    }

    /**
     * How long this handler, once idle, now polls for readiness before it blocks, in nanoseconds; 0 if it blocks
     * at once. Loop thread only; for tests.
     */
    public long idlePollNanos() {
        return idlePoll.nanos();
    }

    /**
     * Ends the current or next blocking wait, at most once per wait however often it is called. Any thread; after
     * the handler is destroyed it does nothing (the loop no longer arms the flag).
     */
    public void wakeup() {
        if (wakeupArmed != 0 && WAKEUP_ARMED.getAndSet(this, 0) != 0) {
            waits.signalWakeup();
        }
    }
}
