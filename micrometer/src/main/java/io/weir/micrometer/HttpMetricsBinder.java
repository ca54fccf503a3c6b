package io.weir.micrometer;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.weir.metrics.HttpMetrics;
import java.util.Objects;

/**
 * Binds {@link HttpMetrics}: {@code weir.http.responses} (tag {@code status=1xx..5xx|other}),
 * {@code weir.http2.active.streams}, {@code weir.http2.resets} and {@code weir.http2.goaways} (tags
 * {@code direction=sent|received} and {@code error=<RFC 9113 name>}), and {@code weir.http.timeouts} (tag
 * {@code timeout}). The registry holds the counters weakly: keep the metrics object.
 */
public final class HttpMetricsBinder implements MeterBinder {
    private final HttpMetrics metrics;
    private final Iterable<Tag> tags;

    /** A binder for {@code metrics}, with {@code tags} added to every meter. */
    public HttpMetricsBinder(HttpMetrics metrics, Iterable<Tag> tags) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Meters.counters(registry, "weir.http.responses", "HTTP responses, by status class", metrics.responses(), tags);
        Gauge.builder("weir.http2.active.streams", metrics.activeStreams(), io.weir.metrics.Gauge::value)
                .description("HTTP/2 streams open now").tags(tags).strongReference(true).register(registry);
        Tags sent = Tags.concat(tags, "direction", "sent");
        Tags received = Tags.concat(tags, "direction", "received");
        Meters.counters(registry, "weir.http2.resets", "HTTP/2 RST_STREAM frames, by error code",
                metrics.resetsSent(), sent);
        Meters.counters(registry, "weir.http2.resets", "HTTP/2 RST_STREAM frames, by error code",
                metrics.resetsReceived(), received);
        Meters.counters(registry, "weir.http2.goaways", "HTTP/2 GOAWAY frames, by error code",
                metrics.goAwaysSent(), sent);
        Meters.counters(registry, "weir.http2.goaways", "HTTP/2 GOAWAY frames, by error code",
                metrics.goAwaysReceived(), received);
        Meters.counters(registry, "weir.http.timeouts", "Server timeouts that fired, by kind", metrics.timeouts(),
                tags);
    }
}
