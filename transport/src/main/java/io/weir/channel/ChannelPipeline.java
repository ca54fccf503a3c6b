package io.weir.channel;

import java.util.List;
import java.util.Map;

/**
 * The ordered chain of {@link ChannelHandler}s of one channel, between a head that talks to the transport
 * and a tail that releases whatever nobody handled. Inbound events enter at the head and travel towards the
 * tail; outbound operations enter at the tail (when started on the channel or the pipeline) and travel
 * towards the head.
 *
 * <pre>
 *   head  &lt;-&gt;  h1  &lt;-&gt;  h2  &lt;-&gt;  ...  &lt;-&gt;  tail
 *   inbound  -------------------------------------&gt;
 *   &lt;-------------------------------------  outbound
 * </pre>
 *
 * <p><b>Changing the pipeline.</b> Handlers may be added and removed at any time from any thread. Names are
 * unique per pipeline; a {@code null} name generates one from the class name. {@link ChannelHandler#handlerAdded}
 * and {@link ChannelHandler#handlerRemoved} are called at once when the change is made on the event loop, or
 * as the loop's next task otherwise; until {@code handlerAdded} ran, events pass the new handler by. Misuse
 * (duplicate names, unknown handlers, a non-{@linkplain ChannelHandler.Sharable sharable} handler added
 * twice) throws {@link ChannelPipelineException} or {@link java.util.NoSuchElementException}.
 */
public interface ChannelPipeline extends ChannelOutboundInvoker, Iterable<Map.Entry<String, ChannelHandler>> {

    /** Inserts {@code handler} first, named {@code name} ({@code null}: generated). */
    ChannelPipeline addFirst(String name, ChannelHandler handler);

    /** Inserts each handler first, in reverse order, so they end up in the given order. */
    ChannelPipeline addFirst(ChannelHandler... handlers);

    /** Appends {@code handler} last (just before the tail), named {@code name} ({@code null}: generated). */
    ChannelPipeline addLast(String name, ChannelHandler handler);

    /** Appends each handler last, in order. */
    ChannelPipeline addLast(ChannelHandler... handlers);

    /**
     * Inserts {@code handler} just before the handler named {@code baseName}.
     *
     * @throws java.util.NoSuchElementException if there is no handler named {@code baseName}
     */
    ChannelPipeline addBefore(String baseName, String name, ChannelHandler handler);

    /**
     * Inserts {@code handler} just after the handler named {@code baseName}.
     *
     * @throws java.util.NoSuchElementException if there is no handler named {@code baseName}
     */
    ChannelPipeline addAfter(String baseName, String name, ChannelHandler handler);

    /**
     * Removes {@code handler}.
     *
     * @throws java.util.NoSuchElementException if it is not in this pipeline
     */
    ChannelPipeline remove(ChannelHandler handler);

    /**
     * Removes the handler named {@code name} and returns it.
     *
     * @throws java.util.NoSuchElementException if there is none
     */
    ChannelHandler remove(String name);

    /**
     * Removes the first handler of type {@code handlerType} and returns it.
     *
     * @throws java.util.NoSuchElementException if there is none
     */
    <T extends ChannelHandler> T remove(Class<T> handlerType);

    /**
     * Removes the handler named {@code name} if there is one.
     *
     * @return the removed handler, or {@code null}
     */
    ChannelHandler removeIfExists(String name);

    /**
     * Removes the first handler and returns it.
     *
     * @throws java.util.NoSuchElementException if the pipeline is empty
     */
    ChannelHandler removeFirst();

    /**
     * Removes the last handler and returns it.
     *
     * @throws java.util.NoSuchElementException if the pipeline is empty
     */
    ChannelHandler removeLast();

    /**
     * Puts {@code newHandler} (named {@code newName}, {@code null}: generated, or the old name if free) where
     * {@code oldHandler} is. The new handler is added before the old one is removed, so events never find
     * the position empty.
     */
    ChannelPipeline replace(ChannelHandler oldHandler, String newName, ChannelHandler newHandler);

    /** Replaces the handler named {@code oldName} and returns it. */
    ChannelHandler replace(String oldName, String newName, ChannelHandler newHandler);

    /** Replaces the first handler of type {@code oldHandlerType} and returns it. */
    <T extends ChannelHandler> T replace(Class<T> oldHandlerType, String newName, ChannelHandler newHandler);

    /** The first handler, or {@code null} if the pipeline is empty. */
    ChannelHandler first();

    /** The first handler's context, or {@code null}. */
    ChannelHandlerContext firstContext();

    /** The last handler, or {@code null} if the pipeline is empty. */
    ChannelHandler last();

    /** The last handler's context, or {@code null}. */
    ChannelHandlerContext lastContext();

    /** The handler named {@code name}, or {@code null}. */
    ChannelHandler get(String name);

    /** The first handler of type {@code handlerType}, or {@code null}. */
    <T extends ChannelHandler> T get(Class<T> handlerType);

    /** The context of {@code handler}, or {@code null}. */
    ChannelHandlerContext context(ChannelHandler handler);

    /** The context of the handler named {@code name}, or {@code null}. */
    ChannelHandlerContext context(String name);

    /** The context of the first handler of type {@code handlerType}, or {@code null}. */
    ChannelHandlerContext context(Class<? extends ChannelHandler> handlerType);

    /** The channel. */
    Channel channel();

    /** The handlers' names, head to tail. */
    List<String> names();

    /** The handlers by name, head to tail (a snapshot). */
    Map<String, ChannelHandler> toMap();

    /** Fires {@link ChannelHandler#channelRegistered} from the head. */
    ChannelPipeline fireChannelRegistered();

    /** Fires {@link ChannelHandler#channelUnregistered} from the head. */
    ChannelPipeline fireChannelUnregistered();

    /** Fires {@link ChannelHandler#channelActive} from the head. */
    ChannelPipeline fireChannelActive();

    /** Fires {@link ChannelHandler#channelInactive} from the head. */
    ChannelPipeline fireChannelInactive();

    /** Fires {@link ChannelHandler#channelShutdown} from the head. */
    ChannelPipeline fireChannelShutdown(ChannelShutdownEvent event);

    /** Fires {@link ChannelHandler#exceptionCaught} from the head. */
    ChannelPipeline fireExceptionCaught(Throwable cause);

    /** Fires {@link ChannelHandler#userEventTriggered} from the head, with ownership of {@code evt}. */
    ChannelPipeline fireUserEventTriggered(Object evt);

    /** Fires {@link ChannelHandler#channelRead} from the head, with ownership of {@code msg}. */
    ChannelPipeline fireChannelRead(Object msg);

    /** Fires {@link ChannelHandler#channelReadComplete} from the head. */
    ChannelPipeline fireChannelReadComplete();

    /** Fires {@link ChannelHandler#channelWritabilityChanged} from the head. */
    ChannelPipeline fireChannelWritabilityChanged();

    @Override
    ChannelPipeline read();

    @Override
    ChannelPipeline flush();
}
