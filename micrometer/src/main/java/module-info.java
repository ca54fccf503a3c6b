/**
 * Micrometer {@code MeterBinder}s for Weir's metrics: bind a {@link io.weir.metrics.WeirMetrics} with
 * {@link io.weir.micrometer.WeirMetricsBinder} (or one area with its own binder) and every counter and gauge shows up
 * in the registry, named {@code weir.*}.
 */
module io.weir.micrometer {
    requires transitive io.weir.common;
    requires transitive micrometer.core;

    exports io.weir.micrometer;
}
