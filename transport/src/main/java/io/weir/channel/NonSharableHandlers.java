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
    private static final ClassValue<Boolean> SHARABLE = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return type.isAnnotationPresent(ChannelHandler.Sharable.class);
        }
    };
    private static final ClassValue<AtomicReference<WeakReference<DefaultChannelHandlerContext>>> LAST_ADDED =
            new ClassValue<>() {
                @Override
                protected AtomicReference<WeakReference<DefaultChannelHandlerContext>> computeValue(Class<?> type) {
                    return new AtomicReference<>();
                }
            };

    private NonSharableHandlers() {
    }

    static boolean isSharable(ChannelHandler handler) {
        return SHARABLE.get(handler.getClass());
    }

    /**
     * Checks that {@code handler} may be added to a pipeline.
     *
     * @throws ChannelPipelineException if it is not sharable and is, as its class's last added instance, still in
     *         a pipeline
     */
    static void claim(ChannelHandler handler) {
        if (isSharable(handler)) {
            return;
        }
        WeakReference<DefaultChannelHandlerContext> ref = LAST_ADDED.get(handler.getClass()).get();
        DefaultChannelHandlerContext last = ref == null ? null : ref.get();
        if (last != null && last.handler() == handler && !last.isRemoved()) {
            throw new ChannelPipelineException(handler.getClass().getName()
                    + " is not a @Sharable handler, so it cannot be added to a pipeline while it is in one");
        }
    }

    /** Records that {@code ctx}'s handler, which passed {@link #claim}, is now in a pipeline. */
    static void claimed(DefaultChannelHandlerContext ctx) {
        if (!isSharable(ctx.handler())) {
            LAST_ADDED.get(ctx.handler().getClass()).set(new WeakReference<>(ctx));
        }
    }

    /** Records that {@code handler} left its pipeline. */
    static void release(ChannelHandler handler) {
        if (isSharable(handler)) {
            return;
        }
        AtomicReference<WeakReference<DefaultChannelHandlerContext>> last = LAST_ADDED.get(handler.getClass());
        WeakReference<DefaultChannelHandlerContext> ref = last.get();
        DefaultChannelHandlerContext ctx = ref == null ? null : ref.get();
        if (ctx != null && ctx.handler() == handler) {
            last.compareAndSet(ref, null);
        }
    }
}
