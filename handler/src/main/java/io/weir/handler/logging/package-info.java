/** {@link io.weir.handler.logging.LoggingHandler}: logs every event of a pipeline through {@code System.Logger}. */
package io.weir.handler.logging;
