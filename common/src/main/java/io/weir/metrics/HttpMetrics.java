package io.weir.metrics;

import java.util.List;
import java.util.Locale;

/**
 * HTTP/1.1 and HTTP/2 on a server: responses by status class, HTTP/2 streams open now, RST_STREAM and GOAWAY frames
 * by error code and direction, and the timeouts that fired. Updated, when they are given this object, by the HTTP/2
 * frame codec (streams, frames, HTTP/2 timeouts), the HTTP/1.1 timeout handler (HTTP/1.1 timeouts and responses) and
 * the reference server's response counter on HTTP/2 streams. Thread-safe.
 */
public final class HttpMetrics {
    /**
     * The HTTP/2 error codes of RFC 9113 §7 by value (0x0 to 0xd), then {@code UNKNOWN_ERROR} for any other code a
     * peer sends (so that a peer cannot grow the label set).
     */
    public static final List<String> HTTP2_ERROR_LABELS = List.of("NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR",
            "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT", "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL",
            "COMPRESSION_ERROR", "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED",
            "UNKNOWN_ERROR");
    private static final List<String> STATUS_CLASSES = List.of("1xx", "2xx", "3xx", "4xx", "5xx", "other");

    /** The timeouts a server enforces: the label values of {@link #timeouts()}, in index order. */
    public enum Timeout {
        /**
         * HTTP/1.1: a request head did not arrive in time; or a new plain-text connection sent neither a request line
         * nor the HTTP/2 preface in time.
         */
        REQUEST_HEAD,
        /** HTTP/1.1 or HTTP/2: a request body arrived below the minimum rate. */
        BODY_RATE,
        /** HTTP/1.1 or HTTP/2: a connection stayed idle (no request, no stream) for too long. */
        IDLE,
        /** HTTP/1.1: the client read none of its queued output for too long. */
        WRITE_PROGRESS,
        /** HTTP/2: a stream the client had not finished received nothing for too long. */
        STREAM_READ;

        /** The label value: the name in lower case. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final LabeledCounters responses = new LabeledCounters("status", STATUS_CLASSES);
    private final Gauge activeStreams = new Gauge();
    private final LabeledCounters resetsSent = new LabeledCounters("error", HTTP2_ERROR_LABELS);
    private final LabeledCounters resetsReceived = new LabeledCounters("error", HTTP2_ERROR_LABELS);
    private final LabeledCounters goAwaysSent = new LabeledCounters("error", HTTP2_ERROR_LABELS);
    private final LabeledCounters goAwaysReceived = new LabeledCounters("error", HTTP2_ERROR_LABELS);
    private final LabeledCounters timeouts = LabeledCounters.of("timeout", Timeout.class);

    /** Metrics at zero. */
    public HttpMetrics() {
    }

    /** Responses by status class: {@code 1xx} to {@code 5xx}, and {@code other} for a code outside 100-599. */
    public LabeledCounters responses() {
        return responses;
    }

    /** HTTP/2 streams open or half-closed now, over every connection. */
    public Gauge activeStreams() {
        return activeStreams;
    }

    /** RST_STREAM frames sent, by error code ({@link #HTTP2_ERROR_LABELS}). */
    public LabeledCounters resetsSent() {
        return resetsSent;
    }

    /** RST_STREAM frames received, by error code. */
    public LabeledCounters resetsReceived() {
        return resetsReceived;
    }

    /** GOAWAY frames sent, by error code. */
    public LabeledCounters goAwaysSent() {
        return goAwaysSent;
    }

    /** GOAWAY frames received, by error code. */
    public LabeledCounters goAwaysReceived() {
        return goAwaysReceived;
    }

    /** Timeouts that fired, by {@link Timeout} (index = ordinal). */
    public LabeledCounters timeouts() {
        return timeouts;
    }

    /** Records a response with status {@code status}. */
    public void response(int status) {
        int statusClass = status / 100;
        responses.increment(statusClass >= 1 && statusClass <= 5 ? statusClass - 1 : 5);
    }

    /** Records a timeout that fired. */
    public void timeout(Timeout kind) {
        timeouts.increment(kind.ordinal());
    }

    /** The index in {@link #HTTP2_ERROR_LABELS} of HTTP/2 error code {@code errorCode} (an unsigned 32-bit value). */
    public static int http2ErrorIndex(long errorCode) {
        int unknown = HTTP2_ERROR_LABELS.size() - 1;
        return errorCode >= 0 && errorCode < unknown ? (int) errorCode : unknown;
    }
}
