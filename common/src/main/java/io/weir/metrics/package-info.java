/**
 * Weir's metrics, without dependencies: counters and gauges that the event loops, the pooled allocator, the
 * connection handler, the HTTP/1.1 and HTTP/2 codecs and the TLS handler update, gathered in one
 * {@link io.weir.metrics.WeirMetrics} that an exporter (the {@code weir-micrometer} module, the reference server's
 * Prometheus page) reads; and Weir's JDK Flight Recorder events ({@link io.weir.metrics.WeirEvents}).
 *
 * <p><b>Cost.</b> Recording is off until a {@code WeirMetrics} is handed to a component: the disabled path of every
 * recording point is one null check. Counters are {@link java.util.concurrent.atomic.LongAdder}s (no lock, no
 * allocation per event, no contention between event loops); gauges of the event loops and the allocator are read
 * from the component when an exporter asks, racily and best effort, never written on the hot path.
 */
package io.weir.metrics;
