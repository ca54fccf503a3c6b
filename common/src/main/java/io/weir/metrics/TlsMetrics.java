package io.weir.metrics;

import java.util.Locale;

/**
 * TLS handshakes on a server: completed and resumed ones by engine, failed ones by reason. Updated by the TLS
 * handler of a context that was given this object. Thread-safe.
 */
public final class TlsMetrics {
    /** The TLS engines: the label values of {@link #handshakes()} and {@link #resumed()}, in index order. */
    public enum Engine {
        /** The JDK's {@code SSLEngine}. */
        JDK,
        /** BoringSSL through netty-tcnative. */
        OPENSSL;

        /** The label value: the name in lower case. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Why a handshake failed: the label values of {@link #failures()}, in index order. */
    public enum FailureReason {
        /** It did not finish within the handshake timeout. */
        TIMEOUT,
        /** A certificate was rejected (untrusted, expired, wrong host). */
        CERTIFICATE,
        /** The peer broke the protocol or shared no protocol version, cipher suite or ALPN protocol. */
        PROTOCOL,
        /** The first bytes were not a TLS record (plain HTTP on the TLS port, a scanner). */
        NOT_TLS,
        /** The connection closed before the handshake finished. */
        CLOSED,
        /** Anything else. */
        OTHER;

        /** The label value: the name in lower case. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final LabeledCounters handshakes = LabeledCounters.of("engine", Engine.class);
    private final LabeledCounters resumed = LabeledCounters.of("engine", Engine.class);
    private final LabeledCounters failures = LabeledCounters.of("reason", FailureReason.class);

    /** Metrics at zero. */
    public TlsMetrics() {
    }

    /** Handshakes that completed, by {@link Engine} (index = ordinal). */
    public LabeledCounters handshakes() {
        return handshakes;
    }

    /** Completed handshakes that resumed an earlier session, by {@link Engine}. */
    public LabeledCounters resumed() {
        return resumed;
    }

    /** Handshakes that failed, by {@link FailureReason} (index = ordinal). */
    public LabeledCounters failures() {
        return failures;
    }

    /** Records a completed handshake on {@code engine}, which resumed a session or not. */
    public void handshakeCompleted(Engine engine, boolean resumedSession) {
        handshakes.increment(engine.ordinal());
        if (resumedSession) {
            resumed.increment(engine.ordinal());
        }
    }

    /** Records a failed handshake. */
    public void handshakeFailed(FailureReason reason) {
        failures.increment(reason.ordinal());
    }

    /** The share of completed handshakes that resumed a session, from 0 to 1 (0 before the first one). */
    public double resumptionRate() {
        long all = handshakes.total();
        return all == 0 ? 0 : (double) resumed.total() / all;
    }
}
