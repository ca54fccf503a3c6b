package io.weir.micrometer;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.weir.metrics.ChannelMetrics;
import java.util.Objects;

/**
 * Binds {@link ChannelMetrics}: {@code weir.connections.accepted}, {@code weir.connections.open},
 * and {@code weir.connections.closed} (tag {@code reason=peer|local|error}); the bytes connections carry are the
 * event loops' ({@link EventLoopMetricsBinder}). The registry reads the counters when scraped; it holds them weakly, so keep
 * the metrics object (the server that records into it does).
 */
public final class ChannelMetricsBinder implements MeterBinder {
    private final ChannelMetrics metrics;
    private final Iterable<Tag> tags;

    /** A binder for {@code metrics}, with {@code tags} added to every meter. */
    public ChannelMetricsBinder(ChannelMetrics metrics, Iterable<Tag> tags) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Meters.counter(registry, "weir.connections.accepted", "Connections that became active", null,
                metrics.accepted(), tags);
        Gauge.builder("weir.connections.open", metrics.open(), io.weir.metrics.Gauge::value)
                .description("Connections active now").tags(tags).strongReference(true).register(registry);
        Meters.counters(registry, "weir.connections.closed", "Connections closed, by reason", metrics.closed(), tags);
    }
}
