package io.weir.channel.group;

import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.FutureListener;

/**
 * A {@link FutureListener} that receives the {@link ChannelGroupFuture} itself, so a lambda can look at the
 * outcome per channel. Runs on the group's executor (see {@link DefaultChannelGroup}).
 */
@FunctionalInterface
public interface ChannelGroupFutureListener extends FutureListener<Void> {

    /** Called once when {@code future} is done. An exception thrown here is logged. */
    void operationComplete(ChannelGroupFuture future) throws Exception;

    /** Forwards to {@link #operationComplete(ChannelGroupFuture)}; group futures are their own event. */
    @Override
    default void operationComplete(Future<? extends Void> future) throws Exception {
        operationComplete((ChannelGroupFuture) future);
    }
}
