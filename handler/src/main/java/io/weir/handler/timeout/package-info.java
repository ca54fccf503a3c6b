/**
 * Idle detection ({@link io.weir.handler.timeout.IdleStateHandler}) and the read and write timeouts built on
 * the channel's event-loop timers.
 */
package io.weir.handler.timeout;
