/**
 * Reference counting, leak detection, object pooling, {@link io.weir.util.AsciiString}, tickers and timers.
 */
package io.weir.util;
