package io.weir.handler.traffic;

import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Limits the reads and writes of all channels it is added to, together, to a number of bytes per second
 * (see {@link AbstractTrafficShapingHandler}). One instance is shared by every channel ({@link Sharable});
 * each channel keeps its own queue of delayed writes, so one channel's backlog never reorders another's.
 * The shared {@link TrafficCounter} computes throughput on the executor given to the constructor (an event
 * loop of the server, typically). Call {@link #release()} when the handler is no longer used.
 */
@ChannelHandler.Sharable
public class GlobalTrafficShapingHandler extends AbstractTrafficShapingHandler {
    /** The default total queued bytes beyond which every channel's writes are reported suspended. */
    public static final long DEFAULT_MAX_GLOBAL_WRITE_SIZE_BYTES = 400L * 1024 * 1024;

    private final ConcurrentHashMap<Channel, ChannelState> states = new ConcurrentHashMap<>();
    private final AtomicLong queuesSize = new AtomicLong();
    private volatile long maxGlobalWriteSizeBytes = DEFAULT_MAX_GLOBAL_WRITE_SIZE_BYTES;

    /**
     * Limits the total writes to {@code writeLimit} and reads to {@code readLimit} bytes per second
     * ({@code 0}: unlimited), computing throughput every {@code checkIntervalMillis} on {@code executor}.
     */
    public GlobalTrafficShapingHandler(ScheduledExecutorService executor, long writeLimit, long readLimit,
                                       long checkIntervalMillis, long maxTimeMillis) {
        super(writeLimit, readLimit, checkIntervalMillis, maxTimeMillis);
        Objects.requireNonNull(executor, "executor");
        TrafficCounter counter = new TrafficCounter(this, executor, "GlobalTC", checkIntervalMillis);
        setTrafficCounter(counter);
        counter.start();
    }

    /** As the five-argument constructor with {@link #DEFAULT_MAX_TIME_MILLIS}. */
    public GlobalTrafficShapingHandler(ScheduledExecutorService executor, long writeLimit, long readLimit,
                                       long checkIntervalMillis) {
        this(executor, writeLimit, readLimit, checkIntervalMillis, DEFAULT_MAX_TIME_MILLIS);
    }

    /** As the five-argument constructor with the default interval and max time. */
    public GlobalTrafficShapingHandler(ScheduledExecutorService executor, long writeLimit, long readLimit) {
        this(executor, writeLimit, readLimit, DEFAULT_CHECK_INTERVAL_MILLIS, DEFAULT_MAX_TIME_MILLIS);
    }

    /** The total queued bytes beyond which writes are reported suspended. */
    public long getMaxGlobalWriteSize() {
        return maxGlobalWriteSizeBytes;
    }

    /** Sets the total queued bytes beyond which writes are reported suspended. */
    public void setMaxGlobalWriteSize(long maxGlobalWriteSizeBytes) {
        if (maxGlobalWriteSizeBytes <= 0) {
            throw new IllegalArgumentException("maxGlobalWriteSizeBytes: " + maxGlobalWriteSizeBytes
                    + " (expected: > 0)");
        }
        this.maxGlobalWriteSizeBytes = maxGlobalWriteSizeBytes;
    }

    /** Bytes of delayed writes waiting in every channel's queue. Any thread. */
    public long queuesSize() {
        return queuesSize.get();
    }

    /** Stops the shared counter. */
    public void release() {
        trafficCounter().stop();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        states.put(ctx.channel(), new ChannelState(ctx, this));
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        ChannelState state = states.remove(ctx.channel());
        if (state != null) {
            drainQueue(state);
        }
    }

    @Override
    ChannelState state(ChannelHandlerContext ctx) {
        return states.get(ctx.channel());
    }

    @Override
    boolean globalQueueTooLarge() {
        return queuesSize.get() > maxGlobalWriteSizeBytes;
    }

    @Override
    void queuedBytesChanged(long delta) {
        queuesSize.addAndGet(delta);
    }

    @Override
    public boolean isWriteSuspended(Channel channel) {
        ChannelState state = states.get(channel);
        return state != null && state.writeSuspended;
    }
}
