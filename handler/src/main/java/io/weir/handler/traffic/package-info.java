/**
 * Bandwidth limits per channel and across channels, and throughput counters; see
 * {@link io.weir.handler.traffic.AbstractTrafficShapingHandler} for how reads and writes are shaped.
 */
package io.weir.handler.traffic;
