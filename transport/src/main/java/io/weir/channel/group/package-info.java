/**
 * Channel groups: a thread-safe set of channels that is written to, flushed or closed as one, with a
 * future reporting the outcome per channel.
 *
 * <p>A {@link io.weir.channel.group.ChannelGroup} (normally a {@link io.weir.channel.group.DefaultChannelGroup})
 * holds open channels and drops each as it closes. An operation on the group acts on the members a
 * {@link io.weir.channel.group.ChannelMatcher} chooses ({@link io.weir.channel.group.ChannelMatchers} has the
 * usual ones) and returns a {@link io.weir.channel.group.ChannelGroupFuture}, which fails with a
 * {@link io.weir.channel.group.ChannelGroupException} naming each channel the operation failed on.
 *
 * <p>A message written to a group belongs to the group from the call on: each channel gets its own reference
 * (a retained duplicate of a buffer) and the group releases the caller's once, matched or not. Writes skip
 * server channels; closes reach server channels before their connections.
 *
 * <pre>{@code
 * ChannelGroup clients = new DefaultChannelGroup("clients", GlobalEventExecutor.INSTANCE, true);
 * // in the child handler's channelActive: clients.add(ctx.channel());
 * clients.writeAndFlush(Unpooled.copiedBuffer(bytes), ChannelMatchers.isNot(sender));
 * // at shutdown:
 * clients.close().awaitUninterruptibly(timeout, TimeUnit.SECONDS);
 * }</pre>
 */
package io.weir.channel.group;
