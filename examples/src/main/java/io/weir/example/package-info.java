/**
 * Runnable examples of Weir: {@link io.weir.example.echo echo}, {@link io.weir.example.discard discard} (how
 * backpressure works) and a line-based {@link io.weir.example.chat chat}. Each server can also be started from
 * code ({@code start}, {@code close}) so that the tests drive it over real sockets.
 */
package io.weir.example;
