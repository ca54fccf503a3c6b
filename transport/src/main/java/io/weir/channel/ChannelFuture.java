package io.weir.channel;

import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.FutureListener;

/**
 * The result of an I/O operation on a {@link Channel}. Listeners run on the channel's event loop.
 *
 * <p>Do not wait ({@link #sync()}, {@link #await()}) on the channel's event loop: the operation could only
 * complete on that thread, so the wait throws {@link io.weir.util.concurrent.BlockingOperationException}.
 * Add a {@link ChannelFutureListener} instead. Thread-safe.
 */
public interface ChannelFuture extends Future<Void> {

    /** The channel the operation acted on. */
    Channel channel();

    /**
     * Whether this is the channel's {@linkplain Channel#voidPromise() void promise}, which takes no listeners
     * and cannot be waited on.
     */
    boolean isVoid();

    @Override
    ChannelFuture addListener(FutureListener<? super Void> listener);

    /**
     * Adds a listener that receives this future as a {@link ChannelFuture}, so a lambda can reach the
     * channel: {@code f.addListener(done -> done.channel().close())}. Otherwise as
     * {@link #addListener(FutureListener)}.
     */
    default ChannelFuture addListener(ChannelFutureListener listener) {
        return addListener((FutureListener<? super Void>) listener);
    }

    @Override
    ChannelFuture addListeners(FutureListener<? super Void> first, FutureListener<? super Void> second);

    @Override
    ChannelFuture removeListener(FutureListener<? super Void> listener);

    @Override
    ChannelFuture removeListeners(FutureListener<? super Void> first, FutureListener<? super Void> second);

    @Override
    ChannelFuture sync() throws InterruptedException;

    @Override
    ChannelFuture syncUninterruptibly();

    @Override
    ChannelFuture await() throws InterruptedException;

    @Override
    ChannelFuture awaitUninterruptibly();
}
