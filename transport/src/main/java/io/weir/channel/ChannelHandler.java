package io.weir.channel;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.SocketAddress;

/**
 * Handles events of a {@link Channel}'s {@link ChannelPipeline}: inbound events (data read, state changes,
 * exceptions) travel from the head of the pipeline towards the tail, outbound operations (write, close, ...)
 * from the tail towards the head.
 *
 * <p>Every event has a default method here that passes it on to the next handler, so a handler overrides
 * only what it cares about: there are no separate inbound and outbound interfaces and no adapter classes.
 * When a handler is added, the pipeline works out once per class which events the class overrides, and
 * events skip handlers that would only pass them on. A method that overrides one of these defaults but
 * still only forwards (a base class written for all events) can be marked {@link Skip} to keep that benefit.
 *
 * <p><b>Threads.</b> Every method is called on the channel's event loop, one at a time, so a handler's
 * state needs no locks as long as the handler serves one channel. A handler instance may be added to only
 * one pipeline position at a time unless its class is marked {@link Sharable}.
 *
 * <p><b>Ownership.</b> A message passed to {@link #channelRead} or {@link #write} belongs to the handler,
 * which must pass it on or release it. An exception thrown by an inbound method is delivered to this
 * handler's {@link #exceptionCaught}; one thrown by an outbound method fails that operation's promise (or,
 * for {@link #read} and {@link #flush}, is delivered to {@link #exceptionCaught}).
 */
public interface ChannelHandler {

    // ---------------------------------------------------------------- life cycle (called directly, not propagated)

    /** Called once on the event loop when the handler was added to a pipeline, before any event reaches it. */
    default void handlerAdded(ChannelHandlerContext ctx) throws Exception {
    }

    /** Called once on the event loop when the handler was removed; no event reaches it afterwards. */
    default void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
    }

    // ---------------------------------------------------------------- inbound

    /** An exception was raised by a handler or the transport. */
    default void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        ctx.fireExceptionCaught(cause);
    }

    /** The channel was registered with its event loop's I/O handler. */
    default void channelRegistered(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelRegistered();
    }

    /** The channel was deregistered. */
    default void channelUnregistered(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelUnregistered();
    }

    /** The channel became active (bound or connected). */
    default void channelActive(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelActive();
    }

    /** The channel is no longer active. */
    default void channelInactive(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelInactive();
    }

    /** One or both directions of the channel were shut down. */
    default void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) throws Exception {
        ctx.fireChannelShutdown(event);
    }

    /** A message was read; the handler owns {@code msg} and must pass it on or release it. */
    default void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        ctx.fireChannelRead(msg);
    }

    /** The current read loop delivered its last message. */
    default void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelReadComplete();
    }

    /** An application- or handler-defined event; reference-counted events are owned like messages. */
    default void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        ctx.fireUserEventTriggered(evt);
    }

    /** {@link Channel#isWritable()} changed. */
    default void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        ctx.fireChannelWritabilityChanged();
    }

    // ---------------------------------------------------------------- outbound

    /** Bind to {@code localAddress}. */
    default void bind(ChannelHandlerContext ctx, SocketAddress localAddress, ChannelPromise promise) throws Exception {
        ctx.bind(localAddress, promise);
    }

    /** Connect to {@code remoteAddress} from {@code localAddress} (may be {@code null}). */
    default void connect(ChannelHandlerContext ctx, SocketAddress remoteAddress, SocketAddress localAddress,
                         ChannelPromise promise) throws Exception {
        ctx.connect(remoteAddress, localAddress, promise);
    }

    /** Disconnect from the peer. */
    default void disconnect(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
        ctx.disconnect(promise);
    }

    /** Close the channel. */
    default void close(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
        ctx.close(promise);
    }

    /** Register the channel with its event loop's I/O handler. */
    default void register(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
        ctx.register(promise);
    }

    /** Deregister the channel. */
    default void deregister(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
        ctx.deregister(promise);
    }

    /** Shut down one direction of the channel. */
    default void shutdown(ChannelHandlerContext ctx, ChannelShutdownDirection direction, ChannelPromise promise)
            throws Exception {
        ctx.shutdown(direction, promise);
    }

    /** Read once more. */
    default void read(ChannelHandlerContext ctx) throws Exception {
        ctx.read();
    }

    /** Queue {@code msg}; the handler owns it and must pass it on or release it (and complete the promise). */
    default void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        ctx.write(msg, promise);
    }

    /** Send what is queued. */
    default void flush(ChannelHandlerContext ctx) throws Exception {
        ctx.flush();
    }

    /**
     * Marks a handler class whose single instance may sit in several pipelines (or several times in one) at
     * once: it must keep no per-channel state outside the context's attributes. Inherited by subclasses.
     */
    @Documented
    @Inherited
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @interface Sharable {
    }

    /**
     * Marks an overriding event method that only forwards the event, so the pipeline skips this handler for
     * that event as if the method were not overridden. Only for methods whose body is exactly the default
     * forwarding: a skipped method is never called.
     */
    @Documented
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @interface Skip {
    }
}
