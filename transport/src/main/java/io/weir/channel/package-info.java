/**
 * Channels, the handler pipeline and the event-loop contract.
 *
 * <h2>The model</h2>
 * A {@link io.weir.channel.Channel} is created on an {@link io.weir.channel.EventLoop} and stays on it for
 * life; {@code register()} only adds it to the loop's {@link io.weir.channel.IoHandler}. Every handler call
 * for a channel happens on that loop's thread, so handler state needs no locks. Every operation may be
 * started from any thread; off the loop it is queued to the loop, and its outcome is reported through a
 * {@link io.weir.channel.ChannelFuture}.
 *
 * <h2>Handlers</h2>
 * There is one {@link io.weir.channel.ChannelHandler} interface with a default method for every inbound event
 * and outbound operation; a handler overrides what it handles. The {@link io.weir.channel.ChannelPipeline}
 * computes once per handler class which methods are overridden and routes each event only to handlers that
 * handle it, so pass-through handlers cost almost nothing. Handlers are not shared between channels unless
 * their class is marked {@link io.weir.channel.ChannelHandler.Sharable}.
 *
 * <h2>Ownership</h2>
 * Reference-counted messages have one owner at a time: a handler receiving one in {@code channelRead} or
 * {@code write} passes it on or releases it. Whatever reaches the end of the pipeline is released there.
 * The transport releases written messages once sent, and fails and releases queued ones on close.
 *
 * <h2>Writing a transport</h2>
 * Extend {@link io.weir.channel.AbstractChannel} and implement its protected hooks ({@code doBind},
 * {@code doConnect}, {@code doClose}, {@code doBeginRead}, {@code doWrite}, ...); the class comment lists
 * them. {@link io.weir.channel.ChannelOutboundBuffer} holds what is written and gives the transport the
 * flushed part, as messages or as NIO buffers for gathering writes.
 */
package io.weir.channel;
