package io.weir.handler.ssl;

import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelPromise;

/** Completes the promises of several coalesced writes when the record carrying them was written. */
final class PromiseFanOut implements ChannelFutureListener {
    private final ChannelPromise[] promises;

    PromiseFanOut(ChannelPromise[] promises) {
        this.promises = promises;
    }

    @Override
    public void operationComplete(ChannelFuture future) {
        Throwable cause = future.cause();
        for (ChannelPromise p : promises) {
            if (cause == null) {
                p.trySuccess();
            } else if (!p.isVoid()) {
                p.tryFailure(cause);
            }
        }
    }
}
