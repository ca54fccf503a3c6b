package io.weir.handler.codec.http2.internal;

import io.weir.channel.Channel;
import io.weir.metrics.HttpMetrics;
import io.weir.metrics.WeirEvents;

/**
 * Where one {@link Http2Connection} reports what happened on it: its streams, resets, GOAWAY frames and timeouts
 * to the {@link HttpMetrics} the builder was given (nothing when none), resets and GOAWAYs as JFR events too. Only
 * used from the connection's event loop.
 */
final class Http2ConnectionEvents {

    private final HttpMetrics metrics;
    private Channel channel;

    Http2ConnectionEvents(HttpMetrics metrics) {
        this.metrics = metrics;
    }

    /** The channel whose peer the events name. */
    void attach(Channel channel) {
        this.channel = channel;
    }

    void streamOpened() {
        if (metrics != null) {
            metrics.activeStreams().increment();
        }
    }

    void streamClosed() {
        if (metrics != null) {
            metrics.activeStreams().decrement();
        }
    }

    void resetSent(int streamId, long errorCode) {
        if (metrics != null) {
            metrics.resetsSent().increment(HttpMetrics.http2ErrorIndex(errorCode));
        }
        WeirEvents.http2Reset(channel.remoteAddress(), WeirEvents.SENT, streamId, errorCode);
    }

    void resetReceived(int streamId, long errorCode) {
        if (metrics != null) {
            metrics.resetsReceived().increment(HttpMetrics.http2ErrorIndex(errorCode));
        }
        WeirEvents.http2Reset(channel.remoteAddress(), WeirEvents.RECEIVED, streamId, errorCode);
    }

    void goAwaySent(int lastStreamId, long errorCode) {
        if (metrics != null) {
            metrics.goAwaysSent().increment(HttpMetrics.http2ErrorIndex(errorCode));
        }
        WeirEvents.http2GoAway(channel.remoteAddress(), WeirEvents.SENT, lastStreamId, errorCode);
    }

    void goAwayReceived(int lastStreamId, long errorCode) {
        if (metrics != null) {
            metrics.goAwaysReceived().increment(HttpMetrics.http2ErrorIndex(errorCode));
        }
        WeirEvents.http2GoAway(channel.remoteAddress(), WeirEvents.RECEIVED, lastStreamId, errorCode);
    }

    void timedOut(HttpMetrics.Timeout kind) {
        if (metrics != null) {
            metrics.timeout(kind);
        }
    }
}
