package io.weir.channel.pool;

import io.weir.channel.Channel;
import io.weir.util.concurrent.Future;
import io.weir.util.concurrent.Promise;
import java.io.Closeable;
import java.util.Objects;

/**
 * Lends connected channels out and takes them back, so that a client reuses connections instead of opening one
 * per request.
 *
 * <p><b>Ownership.</b> A channel that {@link #acquire()} hands out belongs to the caller until the caller gives it
 * to {@link #release(Channel)}; from that call on it belongs to the pool again, and the caller must not use it
 * (the pool may give it to someone else at once). Release every acquired channel exactly once, even one that has
 * closed meanwhile: the pool counts it as out until then. A channel the caller closes and keeps is never
 * reused, but an implementation that limits how many channels are out still counts it.
 *
 * <p><b>Threads.</b> Every method is thread-safe and returns at once; outcomes are reported through the returned
 * futures. Waiting on one of those futures from an event loop of the pool's group can deadlock (the loop may be
 * the one that has to complete it): add a listener instead.
 */
public interface ChannelPool extends Closeable {

    /**
     * Lends a channel out: an idle one that passes the pool's health check, or else a newly connected one. The
     * future succeeds with the channel, which the caller then owns; it fails with the connect's cause if a new
     * channel could not be connected, with the exception a {@link ChannelPoolHandler} callback threw, or with
     * an {@link IllegalStateException} once the pool is closed. Implementations that limit connections fail it
     * in other ways too (see theirs).
     */
    Future<Channel> acquire();

    /**
     * {@link #acquire()}, completing {@code promise} and returning it. Cancelling the promise before it
     * completes gives up the acquire; a channel obtained for it later goes back to the pool.
     *
     * @throws NullPointerException if {@code promise} is null
     */
    Future<Channel> acquire(Promise<Channel> promise);

    /**
     * Gives back a channel {@link #acquire()} handed out; from this call on the pool owns it. The future succeeds
     * once the pool has taken the channel back, whether it keeps it idle or closes it (closed pool, failed health
     * check). It fails with an {@link IllegalArgumentException} if the channel was not acquired from this pool
     * (the caller gave the channel up with this call and it cannot go back where it came from, so it is closed
     * rather than leaked), with an {@link IllegalStateException} if
     * it is idle in the pool already (a second release, which leaves it alone), or with the exception a
     * {@link ChannelPoolHandler} callback threw (the channel is then closed).
     *
     * <p>The future notifies its listeners on the channel's event loop.
     *
     * @throws NullPointerException if {@code channel} is null
     */
    default Future<Void> release(Channel channel) {
        Objects.requireNonNull(channel, "channel");
        return release(channel, channel.eventLoop().newPromise());
    }

    /**
     * {@link #release(Channel)}, completing {@code promise} and returning it.
     *
     * @throws NullPointerException if {@code channel} or {@code promise} is null
     */
    Future<Void> release(Channel channel, Promise<Void> promise);

    /**
     * Closes the pool: acquires fail from now on, idle channels are closed, and channels still out are closed
     * as they are released. The returned future succeeds once every channel that was idle has closed. Calling it
     * again is harmless.
     */
    Future<Void> closeAsync();

    /**
     * {@link #closeAsync()}, then waits until the idle channels have closed, unless called from an event loop of
     * the pool's group, where that wait could deadlock and this returns once the close has started.
     */
    @Override
    void close();
}
