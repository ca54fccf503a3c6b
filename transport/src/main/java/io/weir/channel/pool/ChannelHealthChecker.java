package io.weir.channel.pool;

import io.weir.channel.Channel;
import io.weir.util.concurrent.Future;

/**
 * Decides whether a pooled channel may be lent out (or kept, when the pool checks on release). A pool calls it on
 * the channel's event loop; the returned future may complete later and on any thread (a check that sends a ping
 * and waits for the answer), and the pool carries on on the channel's loop. A future that fails, or a
 * {@code null} result, counts as unhealthy, as does an exception thrown by {@link #isHealthy}; an unhealthy
 * channel is closed.
 */
@FunctionalInterface
public interface ChannelHealthChecker {

    /** Healthy while {@link Channel#isActive()}: connected and not closed. Answers at once. */
    ChannelHealthChecker ACTIVE = channel -> channel.eventLoop().newSucceededFuture(channel.isActive());

    /**
     * Whether {@code channel} is fit for use. Called on the channel's event loop; must not block.
     *
     * @return a future that succeeds with {@code true} if the channel is healthy
     */
    Future<Boolean> isHealthy(Channel channel);
}
