/** {@link io.weir.handler.flow.FlowControlHandler}: one message per {@code read()} when auto-read is off. */
package io.weir.handler.flow;
