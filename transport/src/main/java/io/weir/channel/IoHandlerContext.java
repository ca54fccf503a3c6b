package io.weir.channel;

/**
 * What an {@link IoHandler} needs to know from its event loop during one {@link IoHandler#run} call. Valid
 * only for the duration of that call.
 */
public interface IoHandlerContext {

    /** Whether the handler may block waiting for readiness (no tasks are waiting to run). */
    boolean canBlock();

    /**
     * How long the handler may block, in nanoseconds from {@code currentTimeNanos} (a {@code Ticker}
     * reading), before the next scheduled task is due; {@code Long.MAX_VALUE} if none is scheduled.
     */
    long delayNanos(long currentTimeNanos);
}
