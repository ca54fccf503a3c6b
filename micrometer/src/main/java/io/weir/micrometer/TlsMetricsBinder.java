package io.weir.micrometer;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.weir.metrics.TlsMetrics;
import java.util.Objects;

/**
 * Binds {@link TlsMetrics}: {@code weir.tls.handshakes} and {@code weir.tls.resumed.handshakes} (tag
 * {@code engine=jdk|openssl}), {@code weir.tls.handshake.failures} (tag {@code reason}) and
 * {@code weir.tls.resumption.ratio}. The registry holds the counters weakly: keep the metrics object.
 */
public final class TlsMetricsBinder implements MeterBinder {
    private final TlsMetrics metrics;
    private final Iterable<Tag> tags;

    /** A binder for {@code metrics}, with {@code tags} added to every meter. */
    public TlsMetricsBinder(TlsMetrics metrics, Iterable<Tag> tags) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Meters.counters(registry, "weir.tls.handshakes", "Completed TLS handshakes, by engine", metrics.handshakes(),
                tags);
        Meters.counters(registry, "weir.tls.resumed.handshakes", "Completed TLS handshakes that resumed a session",
                metrics.resumed(), tags);
        Meters.counters(registry, "weir.tls.handshake.failures", "Failed TLS handshakes, by reason",
                metrics.failures(), tags);
        Gauge.builder("weir.tls.resumption.ratio", metrics, TlsMetrics::resumptionRate)
                .description("Share of completed TLS handshakes that resumed a session").tags(tags)
                .strongReference(true).register(registry);
    }
}
