package io.weir.handler.codec.http2;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A budget of stream resets shared by every connection given it ({@link Http2FrameCodecBuilder#sharedResetBudget}),
 * beside each connection's own limit: Rapid Reset spread over many short connections (hundreds of new connections
 * a second, each staying under the per-connection limit) spends this one, and once a window holds more than
 * allowed, each connection that resets a stream in it ends with GOAWAY ENHANCE_YOUR_CALM until the window turns.
 * Resets received and sent count alike, as for the per-connection limit. One per server (or per group of servers
 * that should share it); not used unless given to the builder.
 *
 * <p>Thread-safe: connections on every event loop record into it with one atomic increment. Windows are fixed
 * and start when the first reset after the last one ended arrives; at a window's turn a few resets may count in
 * either window.
 */
public final class Http2ResetBudget {

    private final long maxResets;
    private final long windowNanos;
    private final AtomicLong windowStart;
    private final AtomicLong count = new AtomicLong();

    /**
     * A budget of {@code maxResets} resets per {@code window} over every connection that shares it.
     *
     * @throws IllegalArgumentException if {@code maxResets} or {@code window} is not positive
     */
    public Http2ResetBudget(long maxResets, long window, TimeUnit unit) {
        if (maxResets <= 0) {
            throw new IllegalArgumentException("maxResets: " + maxResets + " (expected > 0)");
        }
        if (window <= 0) {
            throw new IllegalArgumentException("window: " + window + " (expected > 0)");
        }
        this.maxResets = maxResets;
        this.windowNanos = unit.toNanos(window);
        this.windowStart = new AtomicLong(System.nanoTime());
    }

    /** Records one reset at {@code nowNanos} (a {@link System#nanoTime()} reading); false once over budget. */
    boolean tryRecord(long nowNanos) {
        long start = windowStart.get();
        if (nowNanos - start >= windowNanos && windowStart.compareAndSet(start, nowNanos)) {
            count.set(0);
        }
        return count.incrementAndGet() <= maxResets;
    }

    /** Resets allowed per window. */
    public long maxResets() {
        return maxResets;
    }

    /** The window, in milliseconds. */
    public long windowMillis() {
        return TimeUnit.NANOSECONDS.toMillis(windowNanos);
    }
}
