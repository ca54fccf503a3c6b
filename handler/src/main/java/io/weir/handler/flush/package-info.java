/** {@link io.weir.handler.flush.FlushConsolidationHandler}: fewer flushes, fewer system calls. */
package io.weir.handler.flush;
