package io.weir.handler.traffic;

import io.weir.util.Ticker;
import io.weir.util.concurrent.AbstractScheduledEventExecutor;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the bytes read and written through a traffic shaping handler and computes throughput once per
 * check interval, on a task scheduled on the given executor: cumulative totals, the totals and throughput of
 * the last completed interval, and the bytes of the interval under way.
 *
 * <p>It also paces traffic: {@link #readTimeToWaitNanos} and {@link #writeTimeToWaitNanos} keep, for each
 * direction, the time at which the bytes accepted so far would have been transferred at the limit (a leaky
 * bucket without burst credit), and answer how long the caller should wait.
 *
 * <p>Time comes from the executor's {@link Ticker} when it is a Weir executor (so a manual clock drives it
 * in tests), from {@link System#nanoTime()} otherwise. Thread-safe: a global handler's counter is updated
 * from every channel's event loop, without locks.
 */
public class TrafficCounter {
    private final String name;
    private final ScheduledExecutorService executor;
    private final Ticker ticker;
    private final AbstractTrafficShapingHandler handler;

    private final AtomicLong currentReadBytes = new AtomicLong();
    private final AtomicLong currentWrittenBytes = new AtomicLong();
    private final AtomicLong realWrittenBytes = new AtomicLong();
    private final AtomicLong cumulativeReadBytes = new AtomicLong();
    private final AtomicLong cumulativeWrittenBytes = new AtomicLong();
    // When the transfers accepted so far end at the limit rate; nanos by the ticker.
    private final AtomicLong readFreeTimeNanos = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong writeFreeTimeNanos = new AtomicLong(Long.MIN_VALUE);

    private volatile long checkIntervalMillis;
    private volatile long lastTimeNanos;
    private volatile long lastCumulativeTimeMillis;
    private volatile long lastReadBytes;
    private volatile long lastWrittenBytes;
    private volatile long lastReadThroughput;
    private volatile long lastWriteThroughput;
    private volatile long realWriteThroughput;
    private volatile boolean monitorActive;
    private volatile ScheduledFuture<?> monitorFuture;

    /**
     * A counter computing throughput every {@code checkIntervalMillis} on {@code executor} once
     * {@linkplain #start() started}.
     *
     * @param executor runs the periodic computation; {@code null} for no periodic computation
     * @param checkIntervalMillis the interval; {@code 0} for no periodic computation
     * @throws IllegalArgumentException if {@code checkIntervalMillis} is negative
     */
    public TrafficCounter(ScheduledExecutorService executor, String name, long checkIntervalMillis) {
        this(null, executor, name, checkIntervalMillis);
    }

    TrafficCounter(AbstractTrafficShapingHandler handler, ScheduledExecutorService executor, String name,
                   long checkIntervalMillis) {
        this.handler = handler;
        this.executor = executor;
        this.name = Objects.requireNonNull(name, "name");
        this.ticker = executor instanceof AbstractScheduledEventExecutor e ? e.ticker() : Ticker.system();
        this.checkIntervalMillis = checkNonNegative(checkIntervalMillis, "checkIntervalMillis");
        this.lastTimeNanos = ticker.nanoTime();
        this.lastCumulativeTimeMillis = System.currentTimeMillis();
    }

    static long checkNonNegative(long value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + ": " + value + " (expected: >= 0)");
        }
        return value;
    }

    /** The ticker time in nanoseconds that pacing and intervals are measured with. */
    public long nanoTime() {
        return ticker.nanoTime();
    }

    /** Starts the periodic computation (no-op if already running, or without executor or interval). */
    public synchronized void start() {
        if (monitorActive) {
            return;
        }
        lastTimeNanos = ticker.nanoTime();
        long interval = checkIntervalMillis;
        if (interval > 0 && executor != null) {
            monitorActive = true;
            monitorFuture = executor.schedule(this::monitor, interval, TimeUnit.MILLISECONDS);
        }
    }

    /** Stops the periodic computation after closing the interval under way. */
    public synchronized void stop() {
        if (!monitorActive) {
            return;
        }
        monitorActive = false;
        resetAccounting(ticker.nanoTime());
        if (handler != null) {
            handler.doAccounting(this);
        }
        ScheduledFuture<?> future = monitorFuture;
        if (future != null) {
            future.cancel(false);
            monitorFuture = null;
        }
    }

    private void monitor() {
        if (!monitorActive) {
            return;
        }
        resetAccounting(ticker.nanoTime());
        if (handler != null) {
            handler.doAccounting(this);
        }
        synchronized (this) {
            if (monitorActive) {
                monitorFuture = executor.schedule(this::monitor, checkIntervalMillis, TimeUnit.MILLISECONDS);
            }
        }
    }

    /** Closes the interval under way at {@code nowNanos}: its totals become the "last" figures. */
    synchronized void resetAccounting(long nowNanos) {
        long intervalMillis = TimeUnit.NANOSECONDS.toMillis(nowNanos - lastTimeNanos);
        if (intervalMillis <= 0) {
            return;
        }
        lastTimeNanos = nowNanos;
        lastReadBytes = currentReadBytes.getAndSet(0);
        lastWrittenBytes = currentWrittenBytes.getAndSet(0);
        lastReadThroughput = lastReadBytes * 1000 / intervalMillis;
        lastWriteThroughput = lastWrittenBytes * 1000 / intervalMillis;
        realWriteThroughput = realWrittenBytes.getAndSet(0) * 1000 / intervalMillis;
    }

    /**
     * Changes the check interval (rounded down to 10 ms); {@code 0} stops the periodic computation.
     *
     * @throws IllegalArgumentException if {@code newCheckIntervalMillis} is negative
     */
    public void configure(long newCheckIntervalMillis) {
        long interval = checkNonNegative(newCheckIntervalMillis, "newCheckIntervalMillis") / 10 * 10;
        if (checkIntervalMillis != interval) {
            checkIntervalMillis = interval;
            if (interval <= 0) {
                stop();
                lastTimeNanos = ticker.nanoTime();
            } else {
                stop();
                start();
            }
        }
    }

    /** Counts {@code bytes} read. */
    void bytesRecvFlowControl(long bytes) {
        currentReadBytes.addAndGet(bytes);
        cumulativeReadBytes.addAndGet(bytes);
    }

    /** Counts {@code bytes} accepted for writing. */
    void bytesWriteFlowControl(long bytes) {
        currentWrittenBytes.addAndGet(bytes);
        cumulativeWrittenBytes.addAndGet(bytes);
    }

    /** Counts {@code bytes} actually passed on towards the transport. */
    void bytesRealWriteFlowControl(long bytes) {
        realWrittenBytes.addAndGet(bytes);
    }

    /**
     * Counts {@code size} bytes just read and returns how long reading should pause so that the reads so far
     * stay within {@code limit} bytes per second: until they would have been transferred at that rate.
     *
     * @return nanoseconds to wait, at most {@code maxWaitNanos}; {@code 0} if less than
     *         {@link AbstractTrafficShapingHandler#MINIMAL_WAIT_MILLIS} or {@code limit} is {@code 0}
     */
    public long readTimeToWaitNanos(long size, long limit, long maxWaitNanos, long nowNanos) {
        bytesRecvFlowControl(size);
        if (size <= 0 || limit <= 0) {
            return 0;
        }
        long end = reserve(readFreeTimeNanos, size, limit, nowNanos, maxWaitNanos);
        return minimal(end - nowNanos, maxWaitNanos);
    }

    /**
     * Counts {@code size} bytes about to be written and returns how long the write should be delayed so that
     * writes stay within {@code limit} bytes per second: until the bytes accepted before it would have been
     * transferred at that rate.
     *
     * @return nanoseconds to wait, at most {@code maxWaitNanos}; {@code 0} if less than
     *         {@link AbstractTrafficShapingHandler#MINIMAL_WAIT_MILLIS} or {@code limit} is {@code 0}
     */
    public long writeTimeToWaitNanos(long size, long limit, long maxWaitNanos, long nowNanos) {
        bytesWriteFlowControl(size);
        if (size <= 0 || limit <= 0) {
            return 0;
        }
        long end = reserve(writeFreeTimeNanos, size, limit, nowNanos, maxWaitNanos);
        long start = end - transferNanos(size, limit);
        return minimal(start - nowNanos, maxWaitNanos);
    }

    private static long transferNanos(long size, long limit) {
        // size * 1e9 / limit without overflow for any buffer size (size < 2^31).
        return size * 1_000_000_000L / limit;
    }

    /** Books {@code size} bytes on {@code freeTime}; returns when they are transferred. */
    private static long reserve(AtomicLong freeTime, long size, long limit, long nowNanos, long maxWaitNanos) {
        long cost = transferNanos(size, limit);
        for (;;) {
            long prev = freeTime.get();
            long start = prev - nowNanos > 0 ? prev : nowNanos;
            // A wait is capped at maxWait; pacing never books further ahead than that either.
            if (start - nowNanos > maxWaitNanos) {
                start = nowNanos + maxWaitNanos;
            }
            long end = start + cost;
            if (freeTime.compareAndSet(prev, end)) {
                return end;
            }
        }
    }

    private static long minimal(long waitNanos, long maxWaitNanos) {
        if (waitNanos < TimeUnit.MILLISECONDS.toNanos(AbstractTrafficShapingHandler.MINIMAL_WAIT_MILLIS)) {
            return 0;
        }
        return Math.min(waitNanos, maxWaitNanos);
    }

    /** The counter's name. */
    public String name() {
        return name;
    }

    /** The check interval in milliseconds. */
    public long checkInterval() {
        return checkIntervalMillis;
    }

    /** Bytes per second read during the last completed interval. */
    public long lastReadThroughput() {
        return lastReadThroughput;
    }

    /** Bytes per second accepted for writing during the last completed interval. */
    public long lastWriteThroughput() {
        return lastWriteThroughput;
    }

    /** Bytes per second actually passed on for writing during the last completed interval. */
    public long realWriteThroughput() {
        return realWriteThroughput;
    }

    /** Bytes read during the last completed interval. */
    public long lastReadBytes() {
        return lastReadBytes;
    }

    /** Bytes accepted for writing during the last completed interval. */
    public long lastWrittenBytes() {
        return lastWrittenBytes;
    }

    /** Bytes read in the interval under way. */
    public long currentReadBytes() {
        return currentReadBytes.get();
    }

    /** Bytes accepted for writing in the interval under way. */
    public long currentWrittenBytes() {
        return currentWrittenBytes.get();
    }

    /** Bytes read since creation or {@link #resetCumulativeTime()}. */
    public long cumulativeReadBytes() {
        return cumulativeReadBytes.get();
    }

    /** Bytes accepted for writing since creation or {@link #resetCumulativeTime()}. */
    public long cumulativeWrittenBytes() {
        return cumulativeWrittenBytes.get();
    }

    /** Wall-clock milliseconds of creation or the last {@link #resetCumulativeTime()}. */
    public long lastCumulativeTime() {
        return lastCumulativeTimeMillis;
    }

    /** Resets the cumulative totals. */
    public void resetCumulativeTime() {
        lastCumulativeTimeMillis = System.currentTimeMillis();
        cumulativeReadBytes.set(0);
        cumulativeWrittenBytes.set(0);
    }

    @Override
    public String toString() {
        return new StringBuilder(160).append("Monitor ").append(name)
                .append(" Current Speed Read: ").append(lastReadThroughput >> 10).append(" KB/s, ")
                .append("Asked Write: ").append(lastWriteThroughput >> 10).append(" KB/s, ")
                .append("Real Write: ").append(realWriteThroughput >> 10).append(" KB/s, ")
                .append("Current Read: ").append(currentReadBytes.get() >> 10).append(" KB, ")
                .append("Current asked Write: ").append(currentWrittenBytes.get() >> 10).append(" KB")
                .toString();
    }
}
