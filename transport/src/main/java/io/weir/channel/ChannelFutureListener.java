package io.weir.channel;

import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.FutureListener;

/**
 * A {@link FutureListener} that receives the {@link ChannelFuture} itself, plus the listeners almost every
 * application needs. Runs on the channel's event loop.
 */
@FunctionalInterface
public interface ChannelFutureListener extends FutureListener<Void> {

    /** Closes the channel once the operation is done, whatever its outcome. */
    ChannelFutureListener CLOSE = future -> future.channel().close();

    /** Closes the channel if the operation failed. */
    ChannelFutureListener CLOSE_ON_FAILURE = future -> {
        if (!future.isSuccess()) {
            future.channel().close();
        }
    };

    /** Fires the failure cause through the channel's pipeline as an exception event, if the operation failed. */
    ChannelFutureListener FIRE_EXCEPTION_ON_FAILURE = future -> {
        if (!future.isSuccess() && !future.isCancelled()) {
            future.channel().pipeline().fireExceptionCaught(future.cause());
        }
    };

    /** Called once when {@code future} is done. An exception thrown here is logged. */
    void operationComplete(ChannelFuture future) throws Exception;

    /** Forwards to {@link #operationComplete(ChannelFuture)}; channel futures are their own event. */
    @Override
    default void operationComplete(Future<? extends Void> future) throws Exception {
        operationComplete((ChannelFuture) future);
    }
}
