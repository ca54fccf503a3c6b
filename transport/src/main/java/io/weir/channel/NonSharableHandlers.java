package io.weir.channel;

import io.weir.util.concurrent.FastThreadLocal;
import java.lang.ref.WeakReference;
import java.util.Arrays;

/**
 * Catches a non-{@linkplain ChannelHandler.Sharable sharable} handler instance added to a second pipeline while
 * it is in one: the usual slip is one instance kept in a field and added to every connection's pipeline.
 *
 * <p>Per handler class and per thread, it remembers the context of the instance that thread added last; adding
 * that same instance again on that thread while its context is in a pipeline fails. Pipelines are filled on their
 * event loops, so the slip is caught by the second connection on a loop. Nothing is kept per connection (a
 * registry of every live handler would cost each connection a weak reference and a map node per handler, over
 * half a kilobyte on a server pipeline, and a shared map update per add), and nothing shared is written: an HTTP/2
 * stream's channel adds its handlers per request, and a slot shared by every loop would cost each add a fence and
 * move its cache line from core to core. So the check covers the same instance added twice in a row on one
 * thread, not an instance re-added after another instance of its class, nor two adds on two threads. The context
 * is remembered weakly: a pipeline dropped without being closed is not kept reachable from here.
 */
final class NonSharableHandlers {

    /** Per thread, indexed by {@link HandlerType#id}: the context of the last instance of the class added. */
    private static final FastThreadLocal<Object[]> LAST_ADDED = new FastThreadLocal<>() {
        @Override
        protected Object[] initialValue() {
            return new Object[16];
        }
    };

    private NonSharableHandlers() {
    }

    /**
     * Checks that {@code handler}, of type {@code type}, may be added to a pipeline.
     *
     * @throws ChannelPipelineException if it is not sharable and is, as its class's last instance added on this
     *         thread, still in a pipeline
     */
    static void claim(ChannelHandler handler, HandlerType type) {
        if (type.sharable) {
            return;
        }
        DefaultChannelHandlerContext last = lastAdded(LAST_ADDED.get(), type.id);
        if (last != null && last.handler() == handler && !last.isRemoved()) {
            throw new ChannelPipelineException(handler.getClass().getName()
                    + " is not a @Sharable handler, so it cannot be added to a pipeline while it is in one");
        }
    }

    /** Records that {@code ctx}'s handler, which passed {@link #claim}, is now in a pipeline. */
    static void claimed(DefaultChannelHandlerContext ctx) {
        HandlerType type = ctx.type;
        if (type.sharable) {
            return;
        }
        Object[] slots = LAST_ADDED.get();
        int id = type.id;
        if (id >= slots.length) {
            slots = Arrays.copyOf(slots, Math.max(id + 1, slots.length * 2));
            LAST_ADDED.set(slots);
        }
        slots[id] = new WeakReference<>(ctx);
    }

    /** Records that {@code ctx}'s handler left its pipeline (on the thread that removes it). */
    static void release(DefaultChannelHandlerContext ctx) {
        HandlerType type = ctx.type;
        if (type.sharable) {
            return;
        }
        Object[] slots = LAST_ADDED.getIfExists();
        if (slots != null && lastAdded(slots, type.id) == ctx) {
            slots[type.id] = null;
        }
    }

    @SuppressWarnings("unchecked")
    private static DefaultChannelHandlerContext lastAdded(Object[] slots, int id) {
        if (id >= slots.length) {
            return null;
        }
        WeakReference<DefaultChannelHandlerContext> ref = (WeakReference<DefaultChannelHandlerContext>) slots[id];
        return ref == null ? null : ref.get();
    }
}
