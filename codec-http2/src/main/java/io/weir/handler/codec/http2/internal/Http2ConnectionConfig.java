package io.weir.handler.codec.http2.internal;

import io.weir.handler.codec.http2.Http2Settings;
import io.weir.metrics.HttpMetrics;
import io.weir.util.Ticker;
import java.util.function.LongPredicate;

/**
 * The limits and timeouts of one {@link Http2Connection}, as the codec's builder set them (the builder documents
 * each one; its defaults are the constants on {@code Http2FrameCodec}). Immutable; one per codec.
 *
 * @param server whether this is the server side
 * @param initialSettings the SETTINGS sent first (copied by the connection)
 * @param connectionWindowSize the connection receive window offered, in octets
 * @param maxResetsPerWindow resets allowed per {@code resetWindowMillis}
 * @param resetWindowMillis the reset-counting window, in milliseconds
 * @param sharedResetBudget records one reset at a {@link System#nanoTime()} reading against a budget shared by
 *        connections, false once it is spent; null when there is none
 * @param sharedResetBudgetMax the shared budget's resets per window, for the error message
 * @param sharedResetBudgetWindowMillis the shared budget's window, in milliseconds, for the error message
 * @param maxQueuedControlFrames control-frame answers allowed to wait unwritten
 * @param maxConsecutiveEmptyDataFrames empty DATA frames without END_STREAM allowed in a row
 * @param settingsAckTimeoutMillis time the peer has to acknowledge our SETTINGS
 * @param streamStallTimeoutMillis time a stream may hold queued DATA on a zero window
 * @param maxQueuedOutboundBytes DATA held back by flow control before streams turn unwritable
 * @param outboundHardLimitBytes queued output past which streams are reset and connections closed
 * @param writeProgressTimeoutMillis time a connection owing output may send none of it; 0 disables
 * @param gracefulShutdownTimeoutMillis time a graceful close waits for open streams
 * @param maxHeaderCount fields allowed in one header section
 * @param maxContinuationFrames CONTINUATION frames allowed per header block
 * @param maxPriorityFieldValueLength longest RFC 9218 Priority Field Value parsed, in octets
 * @param idleTimeoutMillis time without an open stream before a graceful close; 0 disables
 * @param streamReadTimeoutMillis time a stream waiting for the peer may receive nothing; 0 disables
 * @param minBodyRateBytesPerSecond minimum request body rate; 0 disables
 * @param bodyRateWindowNanos the window over which the body rate is measured, in nanoseconds
 * @param bodyRateGracePeriodNanos how long a stream's body may be slow before the rate is enforced, in nanoseconds
 * @param ticker the clock, or null for the event loop's
 * @param metrics where events are counted, or null
 */
public record Http2ConnectionConfig(boolean server, Http2Settings initialSettings, int connectionWindowSize,
        int maxResetsPerWindow, long resetWindowMillis, LongPredicate sharedResetBudget, long sharedResetBudgetMax,
        long sharedResetBudgetWindowMillis, int maxQueuedControlFrames, int maxConsecutiveEmptyDataFrames,
        long settingsAckTimeoutMillis, long streamStallTimeoutMillis, long maxQueuedOutboundBytes,
        long outboundHardLimitBytes, long writeProgressTimeoutMillis, long gracefulShutdownTimeoutMillis,
        int maxHeaderCount, int maxContinuationFrames, int maxPriorityFieldValueLength, long idleTimeoutMillis,
        long streamReadTimeoutMillis, long minBodyRateBytesPerSecond, long bodyRateWindowNanos,
        long bodyRateGracePeriodNanos, Ticker ticker, HttpMetrics metrics) {
}
