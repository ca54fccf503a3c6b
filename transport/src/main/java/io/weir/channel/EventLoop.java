package io.weir.channel;

import io.weir.metrics.EventLoopMetrics;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.Future;

/**
 * One thread that runs tasks and drives an {@link IoHandler}. A channel is given its loop when it is
 * constructed and keeps it for life; every handler call for that channel happens on this thread.
 *
 * <p>All methods are thread-safe. An event loop is a group of one: {@link #next()} returns itself.
 */
public interface EventLoop extends EventExecutor, EventLoopGroup {

    /** Returns {@code this}. */
    @Override
    EventLoop next();

    /** The group this loop belongs to, or {@code null} if it stands alone. */
    @Override
    EventLoopGroup parent();

    /**
     * Adds {@code handle} to this loop's {@link IoHandler} so that it is told about I/O readiness. May be
     * called from any thread; the registration itself happens on the loop and the returned future completes
     * there.
     *
     * @return a future that succeeds with the registration, or fails if the handle is not
     *         {@linkplain #isCompatible compatible}, the loop is shutting down, or the I/O handler refused it
     */
    Future<IoRegistration> register(IoHandle handle);

    /** Whether this loop's {@link IoHandler} can drive handles of {@code handleType}. */
    boolean isCompatible(Class<? extends IoHandle> handleType);

    /**
     * This loop's load: pending tasks, registered channels, I/O time, wake-ups, task times. Weir's
     * {@link SingleThreadIoEventLoop} reports them all; the default, for loops that keep no counters, reports zeros
     * (and -1 registered channels).
     */
    default EventLoopMetrics metrics() {
        return NoEventLoopMetrics.INSTANCE;
    }
}
