package io.weir.channel;

import io.weir.util.concurrent.FutureListener;
import io.weir.util.concurrent.Promise;

/**
 * A writable {@link ChannelFuture}: handed down the pipeline with each outbound operation, and completed by
 * whoever finishes the operation (usually the transport). Thread-safe.
 */
public interface ChannelPromise extends ChannelFuture, Promise<Void> {

    /** {@link #setSuccess(Object) setSuccess(null)}. */
    ChannelPromise setSuccess();

    /** {@link #trySuccess(Object) trySuccess(null)}. */
    boolean trySuccess();

    @Override
    ChannelPromise setSuccess(Void result);

    @Override
    ChannelPromise setFailure(Throwable cause);

    /**
     * This promise if it is a normal one; for the {@linkplain Channel#voidPromise() void promise}, a new
     * promise whose failure is reported to the pipeline like the void promise's would be. For handlers that
     * need to add a listener to whatever promise they were given.
     */
    ChannelPromise unvoid();

    @Override
    ChannelPromise addListener(FutureListener<? super Void> listener);

    @Override
    default ChannelPromise addListener(ChannelFutureListener listener) {
        return addListener((FutureListener<? super Void>) listener);
    }

    @Override
    ChannelPromise addListeners(FutureListener<? super Void> first, FutureListener<? super Void> second);

    @Override
    ChannelPromise removeListener(FutureListener<? super Void> listener);

    @Override
    ChannelPromise removeListeners(FutureListener<? super Void> first, FutureListener<? super Void> second);

    @Override
    ChannelPromise sync() throws InterruptedException;

    @Override
    ChannelPromise syncUninterruptibly();

    @Override
    ChannelPromise await() throws InterruptedException;

    @Override
    ChannelPromise awaitUninterruptibly();
}
