/**
 * Blocking work off the event loop with backpressure: {@link io.weir.handler.offload.OffloadHandler} (virtual
 * threads on JDK 21+, any executor before).
 */
package io.weir.handler.offload;
