package io.weir.channel;

import io.weir.buffer.ByteBufAllocator;

/**
 * A handler's place in a {@link ChannelPipeline}: through it the handler passes events on, starts outbound
 * operations from its own position, and reaches the channel. A context stays valid after its handler is
 * removed, but events sent through it then start from where the handler used to be.
 *
 * <p>The {@code fire*} methods pass an inbound event to the next handler towards the tail that handles it;
 * the outbound methods ({@link ChannelOutboundInvoker}) pass an operation to the next handler towards the
 * head. All may be called from any thread (calls off the event loop are queued to it).
 */
public interface ChannelHandlerContext extends AttributeMap, ChannelOutboundInvoker {

    /** The channel. */
    Channel channel();

    /** The channel's event loop, on which the handler is called. */
    EventLoop executor();

    /** The handler's unique name in its pipeline. */
    String name();

    /** The handler. */
    ChannelHandler handler();

    /** Whether the handler was removed from the pipeline. */
    boolean isRemoved();

    /** The pipeline. */
    ChannelPipeline pipeline();

    /** The channel's allocator. */
    default ByteBufAllocator alloc() {
        return channel().config().getAllocator();
    }

    /** The channel's attribute {@code key} (attributes belong to the channel, not to the context). */
    @Override
    default <T> Attribute<T> attr(AttributeKey<T> key) {
        return channel().attr(key);
    }

    @Override
    default <T> boolean hasAttr(AttributeKey<T> key) {
        return channel().hasAttr(key);
    }

    /** Passes {@link ChannelHandler#channelRegistered} on. */
    ChannelHandlerContext fireChannelRegistered();

    /** Passes {@link ChannelHandler#channelUnregistered} on. */
    ChannelHandlerContext fireChannelUnregistered();

    /** Passes {@link ChannelHandler#channelActive} on. */
    ChannelHandlerContext fireChannelActive();

    /** Passes {@link ChannelHandler#channelInactive} on. */
    ChannelHandlerContext fireChannelInactive();

    /** Passes {@link ChannelHandler#channelShutdown} on. */
    ChannelHandlerContext fireChannelShutdown(ChannelShutdownEvent event);

    /** Passes {@link ChannelHandler#exceptionCaught} on. */
    ChannelHandlerContext fireExceptionCaught(Throwable cause);

    /** Passes {@link ChannelHandler#userEventTriggered} on, with ownership of {@code evt}. */
    ChannelHandlerContext fireUserEventTriggered(Object evt);

    /** Passes {@link ChannelHandler#channelRead} on, with ownership of {@code msg}. */
    ChannelHandlerContext fireChannelRead(Object msg);

    /** Passes {@link ChannelHandler#channelReadComplete} on. */
    ChannelHandlerContext fireChannelReadComplete();

    /** Passes {@link ChannelHandler#channelWritabilityChanged} on. */
    ChannelHandlerContext fireChannelWritabilityChanged();

    @Override
    ChannelHandlerContext read();

    @Override
    ChannelHandlerContext flush();
}
