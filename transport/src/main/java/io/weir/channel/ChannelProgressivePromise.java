package io.weir.channel;

import io.weir.util.concurrent.FutureListener;

/**
 * A {@link ChannelPromise} that reports progress; the outbound buffer calls {@link #tryProgress} as a write
 * is sent. Thread-safe.
 */
public interface ChannelProgressivePromise extends ChannelPromise, ChannelProgressiveFuture {

    /**
     * Reports progress to the progressive listeners.
     *
     * @throws IllegalArgumentException if {@code progress} is negative, or above a non-negative {@code total}
     * @throws IllegalStateException if the promise is already done
     */
    ChannelProgressivePromise setProgress(long progress, long total);

    /** Like {@link #setProgress} but returns {@code false} instead of throwing. */
    boolean tryProgress(long progress, long total);

    @Override
    ChannelProgressivePromise setSuccess();

    @Override
    ChannelProgressivePromise setSuccess(Void result);

    @Override
    ChannelProgressivePromise setFailure(Throwable cause);

    @Override
    ChannelProgressivePromise unvoid();

    @Override
    ChannelProgressivePromise addListener(FutureListener<? super Void> listener);

    @Override
    default ChannelProgressivePromise addListener(ChannelFutureListener listener) {
        return addListener((FutureListener<? super Void>) listener);
    }

    @Override
    ChannelProgressivePromise addListeners(FutureListener<? super Void> first, FutureListener<? super Void> second);

    @Override
    ChannelProgressivePromise removeListener(FutureListener<? super Void> listener);

    @Override
    ChannelProgressivePromise removeListeners(FutureListener<? super Void> first, FutureListener<? super Void> second);

    @Override
    ChannelProgressivePromise sync() throws InterruptedException;

    @Override
    ChannelProgressivePromise syncUninterruptibly();

    @Override
    ChannelProgressivePromise await() throws InterruptedException;

    @Override
    ChannelProgressivePromise awaitUninterruptibly();
}
