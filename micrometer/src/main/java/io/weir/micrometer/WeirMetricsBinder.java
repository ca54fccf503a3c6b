package io.weir.micrometer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.weir.metrics.AllocatorMetrics;
import io.weir.metrics.WeirMetrics;
import java.util.Map;
import java.util.Objects;

/**
 * Binds everything a {@link WeirMetrics} holds: its connections, HTTP and TLS counters, and the event loops and
 * allocators added to it so far (add them before binding):
 * <pre>{@code
 * WeirMetrics metrics = new WeirMetrics().addEventLoops(group)
 *         .addAllocator("default", PooledByteBufAllocator.DEFAULT.metric());
 * new WeirMetricsBinder(metrics).bindTo(registry);
 * }</pre>
 * See {@link EventLoopMetricsBinder}, {@link AllocatorMetricsBinder}, {@link ChannelMetricsBinder},
 * {@link HttpMetricsBinder} and {@link TlsMetricsBinder} for the meters. Keep {@code metrics} reachable: the registry
 * holds its counters weakly.
 */
public final class WeirMetricsBinder implements MeterBinder {
    private final WeirMetrics metrics;
    private final Iterable<Tag> tags;

    /** A binder for {@code metrics}, without extra tags. */
    public WeirMetricsBinder(WeirMetrics metrics) {
        this(metrics, Tags.empty());
    }

    /** A binder for {@code metrics}, with {@code tags} added to every meter (e.g. the server's name). */
    public WeirMetricsBinder(WeirMetrics metrics, Iterable<Tag> tags) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        new EventLoopMetricsBinder(metrics.eventLoops(), tags).bindTo(registry);
        for (Map.Entry<String, AllocatorMetrics> allocator : metrics.allocators().entrySet()) {
            new AllocatorMetricsBinder(allocator.getKey(), allocator.getValue(), tags).bindTo(registry);
        }
        new ChannelMetricsBinder(metrics.channels(), tags).bindTo(registry);
        new HttpMetricsBinder(metrics.http(), tags).bindTo(registry);
        new TlsMetricsBinder(metrics.tls(), tags).bindTo(registry);
    }
}
