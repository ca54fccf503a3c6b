/**
 * Micrometer {@code MeterBinder}s over {@link io.weir.metrics}: one per area (event loops, allocators, connections,
 * HTTP, TLS) and {@link io.weir.micrometer.WeirMetricsBinder} for all of them. The meters read Weir's counters when
 * the registry is scraped; binding adds nothing to Weir's hot path.
 */
package io.weir.micrometer;
