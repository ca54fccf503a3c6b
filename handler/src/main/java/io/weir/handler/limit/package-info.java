/**
 * {@link io.weir.handler.limit.ConnectionLimitHandler}: a cap on the connections a server holds open at once.
 */
package io.weir.handler.limit;
