package io.weir.handler.traffic;

/**
 * Fired as a user event by the traffic shaping handlers when a channel's delayed writes go beyond (or come
 * back within) the max write size or delay; see {@link AbstractTrafficShapingHandler#isWriteSuspended}.
 */
public enum WriteSuspendedEvent {
    /** Queued writes went beyond the max write size or delay: writers should pause. */
    SUSPENDED,
    /** The queue drained: writers may go on. */
    RESUMED
}
