package io.weir.handler.timeout;

import io.weir.channel.Channel;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.util.Ticker;
import io.weir.util.concurrent.AbstractScheduledEventExecutor;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.Future;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Fires an {@link IdleStateEvent} as a user event when a channel has not read, not written, or neither, for a
 * configured time. A time of zero (or less) turns that kind of detection off.
 *
 * <p>Reading counts from the end of a read burst ({@code channelReadComplete}); while a burst is under way the
 * channel is not reader-idle. Writing counts when a write's promise completes. The first event after activity
 * has {@link IdleStateEvent#isFirst()} set; while the channel stays idle a further event follows every period.
 *
 * <p>With {@code observeOutput}, a channel whose writes are queued but draining slowly is not writer-idle:
 * any change of the channel's pending outbound bytes (a message taken by the transport or newly queued)
 * counts as output activity. The channel API exposes pending bytes only through
 * {@link Channel#bytesBeforeUnwritable()} and {@link Channel#bytesBeforeWritable()}, so progress inside one
 * large message that is written partly is not visible; whole messages leaving the buffer are.
 *
 * <p>Timers run on the channel's event loop with its {@link Ticker} (so a manual clock drives them in tests),
 * start when the handler is added to an active channel or when the channel becomes active, and are cancelled
 * when the channel becomes inactive or the handler is removed. Not {@link Sharable}: one instance per channel.
 * Called on the event loop only.
 */
public class IdleStateHandler implements ChannelHandler {
    private static final long MIN_TIMEOUT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final byte ST_NEW = 0;
    private static final byte ST_INITIALIZED = 1;
    private static final byte ST_DESTROYED = 2;

    private final boolean observeOutput;
    private final long readerIdleTimeNanos;
    private final long writerIdleTimeNanos;
    private final long allIdleTimeNanos;

    // Completes per write; reused, so writes allocate no listener.
    private final ChannelFutureListener writeListener = future -> {
        lastWriteTime = ticksInNanos();
        firstWriterIdleEvent = firstAllIdleEvent = true;
    };

    private ChannelHandlerContext ctx;
    private Ticker ticker;
    private byte state = ST_NEW;
    private boolean reading;

    private Future<?> readerIdleTimeout;
    private long lastReadTime;
    private boolean firstReaderIdleEvent = true;

    private Future<?> writerIdleTimeout;
    private long lastWriteTime;
    private boolean firstWriterIdleEvent = true;

    private Future<?> allIdleTimeout;
    private boolean firstAllIdleEvent = true;

    private long lastOutputCheckWriteTime;
    private long lastBytesBeforeUnwritable;
    private long lastBytesBeforeWritable;

    /**
     * Detects idleness in whole seconds.
     *
     * @param readerIdleTimeSeconds seconds without a read before {@link IdleState#READER_IDLE}; 0 disables
     * @param writerIdleTimeSeconds seconds without a write before {@link IdleState#WRITER_IDLE}; 0 disables
     * @param allIdleTimeSeconds seconds without either before {@link IdleState#ALL_IDLE}; 0 disables
     */
    public IdleStateHandler(int readerIdleTimeSeconds, int writerIdleTimeSeconds, int allIdleTimeSeconds) {
        this(readerIdleTimeSeconds, writerIdleTimeSeconds, allIdleTimeSeconds, TimeUnit.SECONDS);
    }

    /** As {@link #IdleStateHandler(boolean, long, long, long, TimeUnit)} without observing output. */
    public IdleStateHandler(long readerIdleTime, long writerIdleTime, long allIdleTime, TimeUnit unit) {
        this(false, readerIdleTime, writerIdleTime, allIdleTime, unit);
    }

    /**
     * Detects idleness in {@code unit}; times of zero or less disable that kind, positive times below one
     * millisecond are raised to one millisecond.
     *
     * @param observeOutput whether queued output that is still draining counts as write activity
     * @throws NullPointerException if {@code unit} is null
     */
    public IdleStateHandler(boolean observeOutput, long readerIdleTime, long writerIdleTime, long allIdleTime,
                            TimeUnit unit) {
        Objects.requireNonNull(unit, "unit");
        this.observeOutput = observeOutput;
        this.readerIdleTimeNanos = toNanos(readerIdleTime, unit);
        this.writerIdleTimeNanos = toNanos(writerIdleTime, unit);
        this.allIdleTimeNanos = toNanos(allIdleTime, unit);
    }

    private static long toNanos(long time, TimeUnit unit) {
        return time <= 0 ? 0 : Math.max(unit.toNanos(time), MIN_TIMEOUT_NANOS);
    }

    /** The reader idle time in milliseconds (0: disabled). */
    public long getReaderIdleTimeInMillis() {
        return TimeUnit.NANOSECONDS.toMillis(readerIdleTimeNanos);
    }

    /** The writer idle time in milliseconds (0: disabled). */
    public long getWriterIdleTimeInMillis() {
        return TimeUnit.NANOSECONDS.toMillis(writerIdleTimeNanos);
    }

    /** The all idle time in milliseconds (0: disabled). */
    public long getAllIdleTimeInMillis() {
        return TimeUnit.NANOSECONDS.toMillis(allIdleTimeNanos);
    }

    /** Whether draining output counts as write activity. */
    public boolean isObserveOutput() {
        return observeOutput;
    }

    // ---------------------------------------------------------------- life cycle

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        // Added anew (after a removal): start afresh.
        state = ST_NEW;
        firstReaderIdleEvent = firstWriterIdleEvent = firstAllIdleEvent = true;
        reading = false;
        if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
            initialize(ctx);
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        destroy();
    }

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isActive()) {
            initialize(ctx);
        }
        ctx.fireChannelRegistered();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        initialize(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        destroy();
        ctx.fireChannelInactive();
    }

    // ---------------------------------------------------------------- activity

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (readerIdleTimeNanos > 0 || allIdleTimeNanos > 0) {
            reading = true;
            firstReaderIdleEvent = firstAllIdleEvent = true;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if ((readerIdleTimeNanos > 0 || allIdleTimeNanos > 0) && reading) {
            lastReadTime = ticksInNanos();
            reading = false;
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (writerIdleTimeNanos > 0 || allIdleTimeNanos > 0) {
            ctx.write(msg, promise.unvoid()).addListener(writeListener);
        } else {
            ctx.write(msg, promise);
        }
    }

    // ---------------------------------------------------------------- events

    /**
     * Called when the channel was idle; fires {@code evt} down the pipeline by default. Subclasses may close
     * the channel instead (as {@link ReadTimeoutHandler} does).
     */
    protected void channelIdle(ChannelHandlerContext ctx, IdleStateEvent evt) throws Exception {
        ctx.fireUserEventTriggered(evt);
    }

    /** The event to fire for {@code state}; the shared constants by default. */
    protected IdleStateEvent newIdleStateEvent(IdleState state, boolean first) {
        return IdleStateEvent.of(state, first);
    }

    // ---------------------------------------------------------------- timers

    private void initialize(ChannelHandlerContext ctx) {
        // Once only: handlerAdded, channelRegistered and channelActive may each find the channel active, and
        // after destroy() (channel inactive or handler removed) the handler stays quiet until added anew.
        if (state != ST_NEW) {
            return;
        }
        state = ST_INITIALIZED;
        this.ctx = ctx;
        this.ticker = tickerOf(ctx.executor());
        initOutputChanged(ctx);
        lastReadTime = lastWriteTime = ticksInNanos();
        if (readerIdleTimeNanos > 0) {
            readerIdleTimeout = schedule(ctx, new ReaderIdleTimeoutTask(), readerIdleTimeNanos);
        }
        if (writerIdleTimeNanos > 0) {
            writerIdleTimeout = schedule(ctx, new WriterIdleTimeoutTask(), writerIdleTimeNanos);
        }
        if (allIdleTimeNanos > 0) {
            allIdleTimeout = schedule(ctx, new AllIdleTimeoutTask(), allIdleTimeNanos);
        }
    }

    private void destroy() {
        state = ST_DESTROYED;
        readerIdleTimeout = cancel(readerIdleTimeout);
        writerIdleTimeout = cancel(writerIdleTimeout);
        allIdleTimeout = cancel(allIdleTimeout);
    }

    private static Future<?> cancel(Future<?> timeout) {
        if (timeout != null) {
            timeout.cancel(false);
        }
        return null;
    }

    static Ticker tickerOf(EventExecutor executor) {
        return executor instanceof AbstractScheduledEventExecutor scheduled ? scheduled.ticker() : Ticker.system();
    }

    private long ticksInNanos() {
        Ticker t = ticker;
        return t == null ? System.nanoTime() : t.nanoTime();
    }

    private static Future<?> schedule(ChannelHandlerContext ctx, Runnable task, long delayNanos) {
        return ctx.executor().schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    private void initOutputChanged(ChannelHandlerContext ctx) {
        if (observeOutput) {
            Channel channel = ctx.channel();
            lastBytesBeforeUnwritable = channel.bytesBeforeUnwritable();
            lastBytesBeforeWritable = channel.bytesBeforeWritable();
            lastOutputCheckWriteTime = lastWriteTime;
        }
    }

    /**
     * Whether output moved since the last check: a write completed, or the channel's pending outbound bytes
     * changed (seen through the bytes left before the channel flips writability).
     */
    private boolean hasOutputChanged(ChannelHandlerContext ctx, boolean first) {
        if (!observeOutput) {
            return false;
        }
        if (lastOutputCheckWriteTime != lastWriteTime) {
            lastOutputCheckWriteTime = lastWriteTime;
            // A write completed since the last event: unless this is the first event, that is activity.
            if (!first) {
                return true;
            }
        }
        Channel channel = ctx.channel();
        long beforeUnwritable = channel.bytesBeforeUnwritable();
        long beforeWritable = channel.bytesBeforeWritable();
        if (beforeUnwritable != lastBytesBeforeUnwritable || beforeWritable != lastBytesBeforeWritable) {
            lastBytesBeforeUnwritable = beforeUnwritable;
            lastBytesBeforeWritable = beforeWritable;
            return true;
        }
        return false;
    }

    private abstract class IdleTask implements Runnable {
        @Override
        public final void run() {
            if (state != ST_INITIALIZED || !ctx.channel().isOpen()) {
                return;
            }
            try {
                run(ctx);
            } catch (Throwable t) {
                ctx.fireExceptionCaught(t);
            }
        }

        abstract void run(ChannelHandlerContext ctx) throws Exception;
    }

    private final class ReaderIdleTimeoutTask extends IdleTask {
        @Override
        void run(ChannelHandlerContext ctx) throws Exception {
            long nextDelay = readerIdleTimeNanos;
            if (!reading) {
                nextDelay -= ticksInNanos() - lastReadTime;
            }
            if (nextDelay <= 0) {
                readerIdleTimeout = schedule(ctx, this, readerIdleTimeNanos);
                boolean first = firstReaderIdleEvent;
                firstReaderIdleEvent = false;
                channelIdle(ctx, newIdleStateEvent(IdleState.READER_IDLE, first));
            } else {
                readerIdleTimeout = schedule(ctx, this, nextDelay);
            }
        }
    }

    private final class WriterIdleTimeoutTask extends IdleTask {
        @Override
        void run(ChannelHandlerContext ctx) throws Exception {
            long nextDelay = writerIdleTimeNanos - (ticksInNanos() - lastWriteTime);
            if (nextDelay <= 0) {
                writerIdleTimeout = schedule(ctx, this, writerIdleTimeNanos);
                boolean first = firstWriterIdleEvent;
                firstWriterIdleEvent = false;
                if (hasOutputChanged(ctx, first)) {
                    return;
                }
                channelIdle(ctx, newIdleStateEvent(IdleState.WRITER_IDLE, first));
            } else {
                writerIdleTimeout = schedule(ctx, this, nextDelay);
            }
        }
    }

    private final class AllIdleTimeoutTask extends IdleTask {
        @Override
        void run(ChannelHandlerContext ctx) throws Exception {
            long nextDelay = allIdleTimeNanos;
            if (!reading) {
                nextDelay -= ticksInNanos() - Math.max(lastReadTime, lastWriteTime);
            }
            if (nextDelay <= 0) {
                allIdleTimeout = schedule(ctx, this, allIdleTimeNanos);
                boolean first = firstAllIdleEvent;
                firstAllIdleEvent = false;
                if (hasOutputChanged(ctx, first)) {
                    return;
                }
                channelIdle(ctx, newIdleStateEvent(IdleState.ALL_IDLE, first));
            } else {
                allIdleTimeout = schedule(ctx, this, nextDelay);
            }
        }
    }
}
