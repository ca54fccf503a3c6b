package io.weir.handler.traffic;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufHolder;
import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.Future;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * The base of the traffic shaping handlers: limits reads and writes to a number of bytes per second.
 *
 * <p><b>Reads</b> are shaped by pausing them: after a read that took the channel over its read limit,
 * auto-read is turned off for the time the bytes read so far should have taken at the limit (at most
 * {@linkplain #getMaxTimeWait() max time}), then turned back on. Messages already read are always passed on;
 * {@code read()} requests made while paused are swallowed. A channel whose auto-read the application turned
 * off stays in the application's hands.
 *
 * <p><b>Writes</b> are shaped by delaying them: a write that would exceed the write limit is queued with its
 * promise and passed on (and flushed) when the bytes before it would have been sent at the limit. Writes stay
 * in order. Messages that are neither {@code ByteBuf} nor {@code ByteBufHolder} count as zero bytes (but wait
 * behind queued writes).
 *
 * <p><b>Writability.</b> Netty marks the channel unwritable through a user-defined writability bit of the
 * outbound buffer while a channel's queue holds more than {@linkplain #getMaxWriteSize() max write size} bytes
 * or a write is delayed more than {@linkplain #getMaxWriteDelay() max write delay}. Weir's channel API does not
 * let handlers reach the outbound buffer, so here {@link Channel#isWritable()} does not reflect the queue:
 * writers that must not queue without bound check {@link #isWriteSuspended(Channel)} (and may listen for
 * {@link WriteSuspendedEvent}s, fired as user events when it flips).
 *
 * <p>Limits are in bytes per second, {@code 0} meaning unlimited; times are in milliseconds. Time is read
 * from the {@link TrafficCounter}'s ticker and delays are scheduled on the channel's event loop, so a
 * manual clock drives both in tests. Configuration setters may be called from any thread.
 */
public abstract class AbstractTrafficShapingHandler implements ChannelHandler {
    /** The default interval of throughput computation. */
    public static final long DEFAULT_CHECK_INTERVAL_MILLIS = 1000;
    /** The default longest pause of reads or delay of a write. */
    public static final long DEFAULT_MAX_TIME_MILLIS = 15_000;
    /** The default delay beyond which a channel's writes are reported suspended. */
    public static final long DEFAULT_MAX_WRITE_DELAY_MILLIS = 4000;
    /** The default queued bytes beyond which a channel's writes are reported suspended. */
    public static final long DEFAULT_MAX_WRITE_SIZE_BYTES = 4L * 1024 * 1024;
    /** Waits shorter than this are not worth a timer and are skipped. */
    public static final long MINIMAL_WAIT_MILLIS = 10;

    private volatile TrafficCounter trafficCounter;
    private volatile long writeLimit;
    private volatile long readLimit;
    private volatile long maxTimeMillis = DEFAULT_MAX_TIME_MILLIS;
    private volatile long checkIntervalMillis;
    private volatile long maxWriteDelayMillis = DEFAULT_MAX_WRITE_DELAY_MILLIS;
    private volatile long maxWriteSizeBytes = DEFAULT_MAX_WRITE_SIZE_BYTES;

    /**
     * A handler with the given limits.
     *
     * @throws IllegalArgumentException if a limit or the interval is negative or {@code maxTimeMillis} is
     *         not positive
     */
    protected AbstractTrafficShapingHandler(long writeLimit, long readLimit, long checkIntervalMillis,
                                            long maxTimeMillis) {
        this.writeLimit = TrafficCounter.checkNonNegative(writeLimit, "writeLimit");
        this.readLimit = TrafficCounter.checkNonNegative(readLimit, "readLimit");
        this.checkIntervalMillis = TrafficCounter.checkNonNegative(checkIntervalMillis, "checkIntervalMillis");
        setMaxTimeWait(maxTimeMillis);
    }

    /** Sets the counter this handler paces by and reports to. */
    void setTrafficCounter(TrafficCounter counter) {
        this.trafficCounter = counter;
    }

    /** The counter, or {@code null} before a channel handler is added. */
    public TrafficCounter trafficCounter() {
        return trafficCounter;
    }

    /** Called after each interval's throughput was computed; does nothing by default. */
    protected void doAccounting(TrafficCounter counter) {
    }

    // ---------------------------------------------------------------- configuration

    /** Changes both limits (bytes per second, {@code 0}: unlimited). */
    public void configure(long newWriteLimit, long newReadLimit) {
        setWriteLimit(newWriteLimit);
        setReadLimit(newReadLimit);
    }

    /** Changes both limits and the check interval. */
    public void configure(long newWriteLimit, long newReadLimit, long newCheckIntervalMillis) {
        configure(newWriteLimit, newReadLimit);
        setCheckInterval(newCheckIntervalMillis);
    }

    /** The write limit in bytes per second ({@code 0}: unlimited). */
    public long getWriteLimit() {
        return writeLimit;
    }

    /** Sets the write limit in bytes per second ({@code 0}: unlimited). */
    public void setWriteLimit(long writeLimit) {
        this.writeLimit = TrafficCounter.checkNonNegative(writeLimit, "writeLimit");
    }

    /** The read limit in bytes per second ({@code 0}: unlimited). */
    public long getReadLimit() {
        return readLimit;
    }

    /** Sets the read limit in bytes per second ({@code 0}: unlimited). */
    public void setReadLimit(long readLimit) {
        this.readLimit = TrafficCounter.checkNonNegative(readLimit, "readLimit");
    }

    /** The interval of throughput computation in milliseconds. */
    public long getCheckInterval() {
        return checkIntervalMillis;
    }

    /** Sets the interval of throughput computation in milliseconds ({@code 0}: none). */
    public void setCheckInterval(long checkIntervalMillis) {
        this.checkIntervalMillis = TrafficCounter.checkNonNegative(checkIntervalMillis, "checkIntervalMillis");
        TrafficCounter counter = trafficCounter;
        if (counter != null) {
            counter.configure(checkIntervalMillis);
        }
    }

    /** The longest pause of reads or delay of one write, in milliseconds. */
    public long getMaxTimeWait() {
        return maxTimeMillis;
    }

    /**
     * Sets the longest pause of reads or delay of one write, in milliseconds.
     *
     * @throws IllegalArgumentException if not positive
     */
    public void setMaxTimeWait(long maxTimeMillis) {
        if (maxTimeMillis <= 0) {
            throw new IllegalArgumentException("maxTimeMillis: " + maxTimeMillis + " (expected: > 0)");
        }
        this.maxTimeMillis = maxTimeMillis;
    }

    /** The write delay in milliseconds beyond which writes are reported suspended. */
    public long getMaxWriteDelay() {
        return maxWriteDelayMillis;
    }

    /** Sets the write delay in milliseconds beyond which writes are reported suspended. */
    public void setMaxWriteDelay(long maxWriteDelayMillis) {
        if (maxWriteDelayMillis <= 0) {
            throw new IllegalArgumentException("maxWriteDelayMillis: " + maxWriteDelayMillis + " (expected: > 0)");
        }
        this.maxWriteDelayMillis = maxWriteDelayMillis;
    }

    /** The queued bytes per channel beyond which writes are reported suspended. */
    public long getMaxWriteSize() {
        return maxWriteSizeBytes;
    }

    /** Sets the queued bytes per channel beyond which writes are reported suspended. */
    public void setMaxWriteSize(long maxWriteSizeBytes) {
        if (maxWriteSizeBytes <= 0) {
            throw new IllegalArgumentException("maxWriteSizeBytes: " + maxWriteSizeBytes + " (expected: > 0)");
        }
        this.maxWriteSizeBytes = maxWriteSizeBytes;
    }

    // ---------------------------------------------------------------- per-channel state

    /** The state of {@code ctx}'s channel; created in {@code handlerAdded}. */
    abstract ChannelState state(ChannelHandlerContext ctx);

    /** Whether queued writes of {@code channel} are beyond the max write size or delay. Any thread. */
    public abstract boolean isWriteSuspended(Channel channel);

    /** Extra condition for reporting writes suspended (the global handler's total queue). */
    boolean globalQueueTooLarge() {
        return false;
    }

    /** Adds {@code delta} queued bytes to a global total, if the subclass keeps one. */
    void queuedBytesChanged(long delta) {
    }

    /** The bytes a message counts for: readable bytes of buffers and holders, {@code 0} otherwise. */
    protected long calculateSize(Object msg) {
        if (msg instanceof ByteBuf buf) {
            return buf.readableBytes();
        }
        if (msg instanceof ByteBufHolder holder) {
            return holder.content().readableBytes();
        }
        return 0;
    }

    /** Per-channel shaping state; touched on the channel's event loop only (flags read from any thread). */
    static final class ChannelState {
        final ChannelHandlerContext ctx;
        final ArrayDeque<Pending> queue = new ArrayDeque<>();
        final Runnable reopenTask;
        long queueSize;
        boolean readSuspended;
        volatile boolean writeSuspended;
        Future<?> reopenFuture;

        ChannelState(ChannelHandlerContext ctx, AbstractTrafficShapingHandler handler) {
            this.ctx = ctx;
            this.reopenTask = () -> handler.reopenRead(this);
        }
    }

    private record Pending(long sendTimeNanos, Object msg, long size, ChannelPromise promise) {
    }

    // ---------------------------------------------------------------- reads

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        long size = calculateSize(msg);
        TrafficCounter counter = trafficCounter;
        if (size > 0 && counter != null) {
            long now = counter.nanoTime();
            long wait = counter.readTimeToWaitNanos(size, readLimit, TimeUnit.MILLISECONDS.toNanos(maxTimeMillis), now);
            if (wait > 0) {
                ChannelState state = state(ctx);
                ChannelConfig config = ctx.channel().config();
                if (state != null && config.isAutoRead() && !state.readSuspended) {
                    config.setAutoRead(false);
                    state.readSuspended = true;
                    state.reopenFuture = ctx.executor().schedule(state.reopenTask, wait, TimeUnit.NANOSECONDS);
                }
            }
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void read(ChannelHandlerContext ctx) throws Exception {
        ChannelState state = state(ctx);
        if (state == null || !state.readSuspended) {
            ctx.read();
        }
    }

    private void reopenRead(ChannelState state) {
        state.reopenFuture = null;
        if (!state.readSuspended) {
            return;
        }
        state.readSuspended = false;
        ChannelConfig config = state.ctx.channel().config();
        // Turning auto-read on again issues a read, which now passes this handler.
        config.setAutoRead(true);
    }

    /** Ends a read pause early (the handler leaves the channel); auto-read goes back on. */
    void releaseReadSuspended(ChannelState state) {
        if (state.reopenFuture != null) {
            state.reopenFuture.cancel(false);
            state.reopenFuture = null;
        }
        if (state.readSuspended) {
            state.readSuspended = false;
            state.ctx.channel().config().setAutoRead(true);
        }
    }

    // ---------------------------------------------------------------- writes

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        long size = calculateSize(msg);
        TrafficCounter counter = trafficCounter;
        ChannelState state = state(ctx);
        if (counter == null || state == null) {
            ctx.write(msg, promise);
            return;
        }
        long now = counter.nanoTime();
        long wait = size > 0
                ? counter.writeTimeToWaitNanos(size, writeLimit, TimeUnit.MILLISECONDS.toNanos(maxTimeMillis), now)
                : 0;
        if (wait == 0 && state.queue.isEmpty()) {
            counter.bytesRealWriteFlowControl(size);
            ctx.write(msg, promise);
            return;
        }
        state.queue.addLast(new Pending(now + wait, msg, size, promise));
        state.queueSize += size;
        queuedBytesChanged(size);
        if (!state.writeSuspended && (state.queueSize > maxWriteSizeBytes
                || wait > TimeUnit.MILLISECONDS.toNanos(maxWriteDelayMillis) || globalQueueTooLarge())) {
            state.writeSuspended = true;
            ctx.fireUserEventTriggered(WriteSuspendedEvent.SUSPENDED);
        }
        ctx.executor().schedule(() -> sendAllDue(state), wait, TimeUnit.NANOSECONDS);
    }

    private void sendAllDue(ChannelState state) {
        TrafficCounter counter = trafficCounter;
        long now = counter == null ? Long.MAX_VALUE : counter.nanoTime();
        ChannelHandlerContext ctx = state.ctx;
        boolean wrote = false;
        Pending pending;
        while ((pending = state.queue.peekFirst()) != null && pending.sendTimeNanos() - now <= 0) {
            state.queue.pollFirst();
            state.queueSize -= pending.size();
            queuedBytesChanged(-pending.size());
            if (counter != null) {
                counter.bytesRealWriteFlowControl(pending.size());
            }
            ctx.write(pending.msg(), pending.promise());
            wrote = true;
        }
        if (state.queue.isEmpty()) {
            releaseWriteSuspended(state);
        } else if (pending != null && pending.sendTimeNanos() - now > 0 && !wrote) {
            // Woken before the head was due (the counter's clock is not the loop's): look again later.
            ctx.executor().schedule(() -> sendAllDue(state), pending.sendTimeNanos() - now, TimeUnit.NANOSECONDS);
        }
        if (wrote) {
            ctx.flush();
        }
    }

    private void releaseWriteSuspended(ChannelState state) {
        if (state.writeSuspended) {
            state.writeSuspended = false;
            state.ctx.fireUserEventTriggered(WriteSuspendedEvent.RESUMED);
        }
    }

    /**
     * Empties {@code state}'s queue when the handler leaves the channel: an active channel gets the queued
     * writes at once, a closed one has them released and their promises failed.
     */
    void drainQueue(ChannelState state) {
        releaseReadSuspended(state);
        ChannelHandlerContext ctx = state.ctx;
        boolean active = ctx.channel().isActive();
        Pending pending;
        boolean wrote = false;
        while ((pending = state.queue.pollFirst()) != null) {
            queuedBytesChanged(-pending.size());
            if (active) {
                ctx.write(pending.msg(), pending.promise());
                wrote = true;
            } else {
                ReferenceCountUtil.safeRelease(pending.msg());
                pending.promise().tryFailure(new ClosedChannelException());
            }
        }
        state.queueSize = 0;
        state.writeSuspended = false;
        if (wrote) {
            ctx.flush();
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(writeLimit: " + writeLimit + ", readLimit: " + readLimit
                + ", checkInterval: " + checkIntervalMillis + ", maxTime: " + maxTimeMillis + ", counter: "
                + trafficCounter + ')';
    }
}
