package io.weir.channel;

import io.weir.util.concurrent.FutureListener;

/**
 * A {@link ChannelFuture} that also reports progress (bytes of a large write, chunks of a file) to the
 * {@link ChannelProgressiveFutureListener}s among its listeners. Thread-safe.
 */
public interface ChannelProgressiveFuture extends ChannelFuture {

    @Override
    ChannelProgressiveFuture addListener(FutureListener<? super Void> listener);

    @Override
    default ChannelProgressiveFuture addListener(ChannelFutureListener listener) {
        return addListener((FutureListener<? super Void>) listener);
    }

    @Override
    ChannelProgressiveFuture addListeners(FutureListener<? super Void> first, FutureListener<? super Void> second);

    @Override
    ChannelProgressiveFuture removeListener(FutureListener<? super Void> listener);

    @Override
    ChannelProgressiveFuture removeListeners(FutureListener<? super Void> first, FutureListener<? super Void> second);

    @Override
    ChannelProgressiveFuture sync() throws InterruptedException;

    @Override
    ChannelProgressiveFuture syncUninterruptibly();

    @Override
    ChannelProgressiveFuture await() throws InterruptedException;

    @Override
    ChannelProgressiveFuture awaitUninterruptibly();
}
