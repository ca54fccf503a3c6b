package io.weir.channel;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Catches a non-{@linkplain ChannelHandler.Sharable sharable} handler instance added to a second pipeline while
 * it is in one: the usual slip is one instance kept in a field and added to every connection's pipeline.
 *
 * <p>Per handler class, it remembers the context of the instance added last; adding that same instance again
 * while its context is in a pipeline fails. Nothing is kept per connection (a registry of every live handler
 * would cost each connection a weak reference and a map node per handler, over half a kilobyte on a server
 * pipeline, and a shared map update per add), so the check covers the same instance added twice in a row, not
 * an instance re-added after another instance of its class. The context is remembered weakly: a pipeline dropped
 * without being closed is not kept reachable from here. Thread-safe; two adds of one instance racing on two
 * loops may both pass.
 */
final class NonSharableHandlers {

    private NonSharableHandlers() {
    }

    /**
     * Checks that {@code handler}, of type {@code type}, may be added to a pipeline.
     *
     * @throws ChannelPipelineException if it is not sharable and is, as its class's last added instance, still in
     *         a pipeline
     */
    static void claim(ChannelHandler handler, HandlerType type) {
        if (type.sharable) {
            return;
        }
        WeakReference<DefaultChannelHandlerContext> ref = type.lastAdded.get();
        DefaultChannelHandlerContext last = ref == null ? null : ref.get();
        if (last != null && last.handler() == handler && !last.isRemoved()) {
            throw new ChannelPipelineException(handler.getClass().getName()
                    + " is not a @Sharable handler, so it cannot be added to a pipeline while it is in one");
        }
    }

    /** Records that {@code ctx}'s handler, which passed {@link #claim}, is now in a pipeline. */
    static void claimed(DefaultChannelHandlerContext ctx) {
        HandlerType type = ctx.type;
        if (!type.sharable) {
            type.lastAdded.set(new WeakReference<>(ctx));
        }
    }

    /** Records that {@code ctx}'s handler left its pipeline. */
    static void release(DefaultChannelHandlerContext ctx) {
        HandlerType type = ctx.type;
        if (type.sharable) {
            return;
        }
        AtomicReference<WeakReference<DefaultChannelHandlerContext>> last = type.lastAdded;
        WeakReference<DefaultChannelHandlerContext> ref = last.get();
        DefaultChannelHandlerContext current = ref == null ? null : ref.get();
        if (current != null && current.handler() == ctx.handler()) {
            last.compareAndSet(ref, null);
        }
    }
}
