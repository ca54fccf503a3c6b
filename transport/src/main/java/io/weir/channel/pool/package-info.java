/**
 * Client connection pools: channels connected once and lent out again and again, so that requests to the same
 * peer skip the connect (and TLS handshake).
 *
 * <p>A {@link io.weir.channel.pool.ChannelPool} lends channels out ({@code acquire}) and takes them back
 * ({@code release}); between the two the caller owns the channel, and must release it exactly once.
 * {@link io.weir.channel.pool.SimpleChannelPool} connects a new channel whenever none is idle;
 * {@link io.weir.channel.pool.FixedChannelPool} lends out at most a fixed number at once and queues the acquires
 * beyond it, each with a timeout. Both connect with a copy of a {@link io.weir.bootstrap.Bootstrap}, tell a
 * {@link io.weir.channel.pool.ChannelPoolHandler} about each channel's creation (where the pipeline is set up),
 * acquires and releases, and ask a {@link io.weir.channel.pool.ChannelHealthChecker} whether an idle channel may
 * be reused.
 *
 * <pre>{@code
 * Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class).remoteAddress(host, port);
 * ChannelPool pool = new FixedChannelPool(b, ch -> ch.pipeline().addLast(new MyCodec()), 8);
 * pool.acquire().addListener(f -> {
 *     if (f.isSuccess()) {
 *         Channel ch = f.getNow();
 *         ch.writeAndFlush(request).addListener(w -> pool.release(ch));  // or release once the answer is in
 *     }
 * });
 * // at shutdown, before group.shutdownGracefully():
 * pool.close();
 * }</pre>
 *
 * <p><b>Threads.</b> Pools are thread-safe. Work on a channel (health checks, handler callbacks) runs on the
 * channel's event loop; a {@code FixedChannelPool} keeps its counts and its queue on one executor of the
 * bootstrap's group. Waiting on a pool's future from an event loop of that group can deadlock: add a listener.
 */
package io.weir.channel.pool;
