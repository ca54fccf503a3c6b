package io.weir.handler.traffic;

import io.weir.channel.Channel;
import io.weir.channel.ChannelHandlerContext;

/**
 * Limits one channel's reads and writes to a number of bytes per second (see
 * {@link AbstractTrafficShapingHandler}). Its {@link TrafficCounter} is created when the handler is added
 * and computes throughput on the channel's event loop. Not {@link Sharable}: one instance per channel.
 */
public class ChannelTrafficShapingHandler extends AbstractTrafficShapingHandler {
    private ChannelState state;

    /**
     * Limits writes to {@code writeLimit} and reads to {@code readLimit} bytes per second ({@code 0}:
     * unlimited), computing throughput every {@code checkIntervalMillis}, pausing at most
     * {@code maxTimeMillis}.
     */
    public ChannelTrafficShapingHandler(long writeLimit, long readLimit, long checkIntervalMillis,
                                        long maxTimeMillis) {
        super(writeLimit, readLimit, checkIntervalMillis, maxTimeMillis);
    }

    /** As the four-argument constructor with {@link #DEFAULT_MAX_TIME_MILLIS}. */
    public ChannelTrafficShapingHandler(long writeLimit, long readLimit, long checkIntervalMillis) {
        this(writeLimit, readLimit, checkIntervalMillis, DEFAULT_MAX_TIME_MILLIS);
    }

    /** As the four-argument constructor with the default interval and max time. */
    public ChannelTrafficShapingHandler(long writeLimit, long readLimit) {
        this(writeLimit, readLimit, DEFAULT_CHECK_INTERVAL_MILLIS, DEFAULT_MAX_TIME_MILLIS);
    }

    /** Counts traffic only, every {@code checkIntervalMillis}, without limits. */
    public ChannelTrafficShapingHandler(long checkIntervalMillis) {
        this(0, 0, checkIntervalMillis, DEFAULT_MAX_TIME_MILLIS);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        state = new ChannelState(ctx, this);
        TrafficCounter counter = new TrafficCounter(this, ctx.executor(), "ChannelTC" + ctx.channel().id().asShortText(),
                getCheckInterval());
        setTrafficCounter(counter);
        counter.start();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        TrafficCounter counter = trafficCounter();
        if (counter != null) {
            counter.stop();
        }
        if (state != null) {
            drainQueue(state);
        }
    }

    @Override
    ChannelState state(ChannelHandlerContext ctx) {
        return state;
    }

    /** Bytes of delayed writes waiting in this handler. Event loop only. */
    public long queueSize() {
        ChannelState s = state;
        return s == null ? 0 : s.queueSize;
    }

    @Override
    public boolean isWriteSuspended(Channel channel) {
        ChannelState s = state;
        return s != null && s.writeSuspended;
    }
}
