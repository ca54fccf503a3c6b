package io.weir.metrics;

import java.util.Locale;

/**
 * Connections of a server: accepted so far, open now, and closed by reason. Updated by the transport's
 * {@code ChannelMetricsHandler}. (The bytes connections carry are counted per event loop:
 * {@link EventLoopMetrics#bytesRead()}.) Thread-safe.
 */
public final class ChannelMetrics {
    /** Why a connection closed: the label values of {@link #closed()}, in index order. */
    public enum CloseReason {
        /** The peer ended the connection (end of stream or reset) before anyone here closed it. */
        PEER,
        /** A handler or the application closed it (a timeout, a drain, a protocol's own end). */
        LOCAL,
        /** It closed after an exception reached the pipeline (an I/O error, a protocol violation). */
        ERROR;

        /** The label value: the name in lower case. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final Counter accepted = new Counter();
    private final Gauge open = new Gauge();
    private final LabeledCounters closed = LabeledCounters.of("reason", CloseReason.class);

    /** Metrics at zero. */
    public ChannelMetrics() {
    }

    /** Connections that became active (accepted by a server, or connected by a client). */
    public Counter accepted() {
        return accepted;
    }

    /** Connections active now. */
    public Gauge open() {
        return open;
    }

    /** Closed connections by {@link CloseReason} (index = ordinal). */
    public LabeledCounters closed() {
        return closed;
    }

    /** Records a connection that became active. */
    public void opened() {
        accepted.increment();
        open.increment();
    }

    /** Records a connection that closed, for {@code reason}. */
    public void closed(CloseReason reason) {
        open.decrement();
        closed.increment(reason.ordinal());
    }
}
