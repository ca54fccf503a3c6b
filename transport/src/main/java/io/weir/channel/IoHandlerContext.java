package io.weir.channel;

/**
 * What an {@link IoHandler} needs to know from its event loop during one {@link IoHandler#run} call. Valid
 * only for the duration of that call.
 */
public interface IoHandlerContext {

    /** Whether the handler may block waiting for readiness (no tasks are waiting to run). */
    boolean canBlock();

    /**
     * How long the handler may block, in nanoseconds from {@code currentTimeNanos}, before the next scheduled
     * task is due: 0 if one is due already, {@code Long.MAX_VALUE} if none is scheduled.
     *
     * @param currentTimeNanos a reading of the loop's {@link io.weir.util.Ticker} (for loops built on
     *        {@link io.weir.util.concurrent.AbstractScheduledEventExecutor}, its {@code ticker()}; with the system
     *        ticker, {@link System#nanoTime()})
     */
    long delayNanos(long currentTimeNanos);

    /**
     * Tells the loop how long the last {@link IoHandler#run} spent processing readiness (not waiting for it),
     * so the loop can balance task time against I/O time. A handler that never calls this is treated as one
     * that did no I/O work: its loop gives tasks only its minimum time budget per iteration.
     *
     * @param activeIoTimeNanos nanoseconds spent dispatching events in this run; {@code 0} if there were none
     */
    default void reportActiveIoTime(long activeIoTimeNanos) {
    }
}
