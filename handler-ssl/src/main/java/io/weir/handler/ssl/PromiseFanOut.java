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
        for (int i = 0; i < promises.length; i++) {
            ChannelPromise p = promises[i];
            if (cause == null) {
                p.trySuccess();
            } else if (!p.isVoid() || firstOccurrence(i)) {
                // A void promise reports its failure elsewhere (an exception event, an HTTP/2 stream channel): told
                // once per record even when it stands for several of the record's writes.
                p.tryFailure(cause);
            }
        }
    }

    private boolean firstOccurrence(int index) {
        ChannelPromise p = promises[index];
        for (int i = 0; i < index; i++) {
            if (promises[i] == p) {
                return false;
            }
        }
        return true;
    }
}
