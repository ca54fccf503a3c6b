package io.weir.channel;

import io.weir.util.platform.LoopLogger;
import java.lang.System.Logger.Level;

/**
 * Sets a channel's pipeline up when it is added, then removes itself: the usual way to give each accepted
 * or connected channel its handlers. {@link #initChannel} runs on the channel's event loop, once per channel
 * the initializer is added to; one instance may serve many channels (it is {@link ChannelHandler.Sharable}),
 * so keep per-channel state out of its fields. If {@code initChannel} throws, the exception is logged and the
 * channel closed.
 *
 * @param <C> the type of channel
 */
@ChannelHandler.Sharable
public abstract class ChannelInitializer<C extends Channel> implements ChannelHandler {
    private static final LoopLogger LOGGER = LoopLogger.of(ChannelInitializer.class);

    /** For subclasses. */
    protected ChannelInitializer() {
    }

    /**
     * Adds handlers to {@code channel}'s pipeline. Called on the channel's event loop before any event reaches
     * the handlers after this initializer.
     */
    protected abstract void initChannel(C channel) throws Exception;

    @SuppressWarnings("unchecked")
    @Override
    public final void handlerAdded(ChannelHandlerContext ctx) {
        try {
            initChannel((C) ctx.channel());
        } catch (Throwable t) {
            LOGGER.log(Level.WARNING, "Failed to initialize a channel; closing it: ", ctx.channel(), t);
            ctx.close();
        } finally {
            if (!ctx.isRemoved()) {
                // By name, not instance: a shared initializer may sit in this pipeline more than once.
                ctx.pipeline().remove(ctx.name());
            }
        }
    }
}
