package io.weir.handler.codec.http2.internal;

import static io.weir.handler.codec.http2.Http2Exception.connectionError;
import static io.weir.handler.codec.http2.Http2Exception.streamError;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;

/**
 * A send window (RFC 9113 §6.9): how many octets of DATA the peer lets us send on one stream or on the connection.
 * A signed 32-bit count: WINDOW_UPDATE raises it, sending DATA lowers it, and a change of the peer's
 * SETTINGS_INITIAL_WINDOW_SIZE moves every stream window by the difference, possibly below zero (§6.9.2). Only
 * called from the connection's event loop.
 */
public final class Http2FlowWindow {

    private final int streamId;
    private int window;

    /**
     * @param streamId the stream, or 0 for the connection window (decides the scope of errors)
     * @param initialWindowSize the starting window, 0..2^31-1 octets (§6.9.2: 65,535 until SETTINGS say otherwise)
     */
    public Http2FlowWindow(int streamId, int initialWindowSize) {
        if (streamId < 0) {
            throw new IllegalArgumentException("streamId: " + streamId + " (expected >= 0)");
        }
        if (initialWindowSize < 0) {
            throw new IllegalArgumentException("initialWindowSize: " + initialWindowSize + " (expected 0.."
                    + Integer.MAX_VALUE + ")");
        }
        this.streamId = streamId;
        this.window = initialWindowSize;
    }

    /** Octets we may send now; negative after a SETTINGS_INITIAL_WINDOW_SIZE decrease (§6.9.2). */
    public int window() {
        return window;
    }

    /** Octets sendable now, never negative. */
    public int available() {
        return Math.max(window, 0);
    }

    /**
     * Takes {@code octets} of the window for a DATA frame being sent (its whole payload, padding included).
     *
     * @throws IllegalArgumentException when {@code octets} is negative or more than {@link #available()}: sending
     *         beyond the window is our bug
     */
    public void consume(int octets) {
        if (octets < 0 || octets > available()) {
            throw new IllegalArgumentException("octets: " + octets + " (expected 0.." + available()
                    + ", the window of stream " + streamId + ")");
        }
        window -= octets;
    }

    /**
     * Applies a received WINDOW_UPDATE.
     *
     * @param increment 1..2^31-1 (the reader refused 0)
     * @throws Http2Exception FLOW_CONTROL_ERROR when the window would exceed 2^31-1 (§6.9.1): a stream error on a
     *         stream window, a connection error on the connection window
     */
    public void increment(int increment) throws Http2Exception {
        long next = (long) window + increment;
        if (next > Http2Frames.MAX_WINDOW_SIZE_BYTES) {
            String message = "WINDOW_UPDATE of " + increment + " takes the window of stream " + streamId + " to "
                    + next + ", above 2^31-1 (RFC 9113 §6.9.1)";
            throw streamId == 0 ? connectionError(Http2Error.FLOW_CONTROL_ERROR, message)
                    : streamError(streamId, Http2Error.FLOW_CONTROL_ERROR, message);
        }
        window = (int) next;
    }

    /**
     * Moves a stream window by the change in the peer's SETTINGS_INITIAL_WINDOW_SIZE (new minus old); the result
     * may be negative (§6.9.2). Not for the connection window, which SETTINGS do not change.
     *
     * @throws Http2Exception connection FLOW_CONTROL_ERROR when the window would exceed 2^31-1 (§6.9.2)
     */
    public void applyInitialWindowSizeDelta(int delta) throws Http2Exception {
        if (streamId == 0) {
            throw new IllegalStateException("SETTINGS_INITIAL_WINDOW_SIZE does not apply to the connection window"
                    + " (RFC 9113 §6.9.2)");
        }
        long next = (long) window + delta;
        if (next > Http2Frames.MAX_WINDOW_SIZE_BYTES || next < Integer.MIN_VALUE) {
            throw connectionError(Http2Error.FLOW_CONTROL_ERROR, "SETTINGS_INITIAL_WINDOW_SIZE change of " + delta
                    + " takes the window of stream " + streamId + " to " + next + ", above 2^31-1 (RFC 9113 §6.9.2)");
        }
        window = (int) next;
    }

    @Override
    public String toString() {
        return "Http2FlowWindow{stream=" + streamId + ", window=" + window + '}';
    }
}
