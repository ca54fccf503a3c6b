package io.weir.handler.codec.http2.internal;

import static io.weir.handler.codec.http2.Http2Exception.connectionError;
import static io.weir.handler.codec.http2.Http2Exception.streamError;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;

/**
 * A receive window (RFC 9113 §6.9): how many octets of DATA we let the peer send on one stream or on the
 * connection. It is refilled as the application <em>consumes</em> bytes, not as they arrive, so a slow reader
 * stops the peer instead of buffering without bound. Only called from the connection's event loop.
 *
 * <p>Three counts: the <b>window</b> the peer may still fill; bytes <b>received</b> but not yet consumed; bytes
 * consumed but not yet <b>announced</b> in a WINDOW_UPDATE. {@link #consume(int)} returns the WINDOW_UPDATE
 * increment to send once the unannounced bytes reach the update threshold (half the target window by default),
 * batching updates instead of sending one per frame.
 */
public final class Http2LocalFlowWindow {

    /** Default fraction of the target window consumed before a WINDOW_UPDATE is sent. */
    public static final float DEFAULT_UPDATE_RATIO = 0.5f;

    private final int streamId;
    private int target;
    private int window;
    private int unconsumed;
    private int unannounced;
    private float updateRatio = DEFAULT_UPDATE_RATIO;
    private int threshold;

    /**
     * @param streamId the stream, or 0 for the connection window (decides the scope of errors)
     * @param windowSize the window the peer starts with, 0..2^31-1 octets: for a stream our
     *        SETTINGS_INITIAL_WINDOW_SIZE, for the connection 65,535 (raise it with {@link #targetWindowSize(int)})
     */
    public Http2LocalFlowWindow(int streamId, int windowSize) {
        if (streamId < 0) {
            throw new IllegalArgumentException("streamId: " + streamId + " (expected >= 0)");
        }
        checkSize("windowSize", windowSize);
        this.streamId = streamId;
        this.target = windowSize;
        this.window = windowSize;
        updateThreshold();
    }

    private static void checkSize(String name, int size) {
        if (size < 0) {
            throw new IllegalArgumentException(name + ": " + size + " (expected 0.." + Integer.MAX_VALUE + ")");
        }
    }

    /**
     * Fraction of the target window that must be consumed before {@link #consume(int)} returns an increment;
     * default {@link #DEFAULT_UPDATE_RATIO}.
     *
     * @throws IllegalArgumentException outside (0, 1]
     */
    public Http2LocalFlowWindow updateRatio(float ratio) {
        if (!(ratio > 0 && ratio <= 1)) {
            throw new IllegalArgumentException("updateRatio: " + ratio + " (expected > 0 and <= 1)");
        }
        updateRatio = ratio;
        updateThreshold();
        return this;
    }

    private void updateThreshold() {
        threshold = Math.max(1, (int) (target * (double) updateRatio));
    }

    /** Octets the peer may still send. */
    public int window() {
        return window;
    }

    /** The window size we keep offering. */
    public int targetWindowSize() {
        return target;
    }

    /** Octets received and not yet consumed by the application. */
    public int unconsumedBytes() {
        return unconsumed;
    }

    /** Octets consumed and not yet announced in a WINDOW_UPDATE. */
    public int unannouncedBytes() {
        return unannounced;
    }

    /**
     * Accounts a received DATA frame (its whole payload, padding included, §6.9.1).
     *
     * @throws Http2Exception FLOW_CONTROL_ERROR when the frame exceeds the window: a stream error on a stream, a
     *         connection error on the connection (§6.9.1)
     */
    public void receive(int octets) throws Http2Exception {
        if (octets > window) {
            String message = "DATA of " + octets + " octets on stream " + streamId + " exceeds the window of "
                    + window + " (RFC 9113 §6.9.1)";
            throw streamId == 0 ? connectionError(Http2Error.FLOW_CONTROL_ERROR, message)
                    : streamError(streamId, Http2Error.FLOW_CONTROL_ERROR, message);
        }
        window -= octets;
        unconsumed += octets;
    }

    /**
     * Records that the application consumed {@code octets} of received data (padding counts as consumed on
     * arrival: pass it here at once).
     *
     * @return the WINDOW_UPDATE increment to send now, or 0 while the consumed-but-unannounced bytes are below the
     *         threshold
     * @throws IllegalArgumentException when {@code octets} is negative or more than was received and not consumed
     */
    public int consume(int octets) {
        if (octets < 0 || octets > unconsumed) {
            throw new IllegalArgumentException("octets: " + octets + " (expected 0.." + unconsumed
                    + ", the unconsumed bytes of stream " + streamId + ")");
        }
        unconsumed -= octets;
        unannounced += octets;
        return announceIfDue();
    }

    /**
     * Consumes every byte still unconsumed, for a stream that is closing: its bytes go back to the connection
     * window. Returns how many octets that was.
     */
    public int consumeAll() {
        int octets = unconsumed;
        unconsumed = 0;
        unannounced += octets;
        return octets;
    }

    private int announceIfDue() {
        if (unannounced < threshold) {
            return 0;
        }
        int increment = unannounced;
        unannounced = 0;
        window += increment;
        return increment;
    }

    /**
     * Changes the window size we offer (for the connection window, which SETTINGS do not size). A larger size is
     * announced at once: the increment to send is returned. A smaller one is taken back from future announcements.
     *
     * @param size 0..2^31-1 octets
     * @return the WINDOW_UPDATE increment to send now, or 0
     */
    public int targetWindowSize(int size) {
        checkSize("size", size);
        int delta = size - target;
        target = size;
        updateThreshold();
        if (delta <= 0) {
            // Withhold the difference from the next announcements; the window shrinks as the peer fills it.
            unannounced += delta;
            return 0;
        }
        unannounced += delta;
        return announceIfDue();
    }

    /**
     * Moves a stream window by the change of our SETTINGS_INITIAL_WINDOW_SIZE once the peer acknowledged it
     * (§6.9.2); the window may become negative, and no WINDOW_UPDATE is needed.
     */
    public void applyInitialWindowSizeDelta(int delta) {
        if (streamId == 0) {
            throw new IllegalStateException("SETTINGS_INITIAL_WINDOW_SIZE does not apply to the connection window"
                    + " (RFC 9113 §6.9.2)");
        }
        long nextTarget = (long) target + delta;
        if (nextTarget < 0 || nextTarget > Http2Frames.MAX_WINDOW_SIZE_BYTES) {
            throw new IllegalArgumentException("delta: " + delta + " takes the window size " + target + " out of 0.."
                    + Integer.MAX_VALUE);
        }
        target = (int) nextTarget;
        window += delta;
        updateThreshold();
    }

    @Override
    public String toString() {
        return "Http2LocalFlowWindow{stream=" + streamId + ", window=" + window + ", target=" + target
                + ", unconsumed=" + unconsumed + ", unannounced=" + unannounced + '}';
    }
}
