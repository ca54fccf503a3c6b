package io.weir.handler.codec.http2.internal;

import io.weir.util.Ticker;
import java.util.Objects;

/**
 * Counts events (resets received and sent, for Rapid Reset and MadeYouReset) in fixed windows of time and says when
 * a window holds more than allowed. Only called from the connection's event loop.
 */
public final class Http2EventLimiter {

    private final int maxEvents;
    private final long windowNanos;
    private final Ticker ticker;
    private long windowStart;
    private int count;

    /**
     * @param maxEvents events allowed per window, > 0
     * @param windowNanos the window, > 0
     */
    public Http2EventLimiter(int maxEvents, long windowNanos, Ticker ticker) {
        if (maxEvents <= 0) {
            throw new IllegalArgumentException("maxEvents: " + maxEvents + " (expected > 0)");
        }
        if (windowNanos <= 0) {
            throw new IllegalArgumentException("windowNanos: " + windowNanos + " (expected > 0)");
        }
        this.maxEvents = maxEvents;
        this.windowNanos = windowNanos;
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.windowStart = ticker.nanoTime();
    }

    /** Records one event; false once the current window holds more than the limit. */
    public boolean tryRecord() {
        long now = ticker.nanoTime();
        if (now - windowStart >= windowNanos) {
            windowStart = now;
            count = 0;
        }
        return ++count <= maxEvents;
    }

    /** Events in the current window. */
    public int count() {
        return count;
    }

    /** The limit per window. */
    public int maxEvents() {
        return maxEvents;
    }
}
