package io.weir.channel.pool;

import io.weir.channel.Channel;

/**
 * Told when a pool creates, lends out and takes back a channel: the place to set a pooled channel's pipeline up
 * ({@link #channelCreated}) and to add or remove per-use handlers ({@link #channelAcquired},
 * {@link #channelReleased}).
 *
 * <p>Every callback runs on the channel's event loop (or, if that loop has terminated, on the thread that made
 * the pool call), so a callback may touch the pipeline without locks and must not block. What a callback
 * throws fails the operation it belongs to and the channel is closed: a throwing {@code channelCreated} fails
 * the connect, and so the acquire, with a closed-channel error (the exception itself is logged), a throwing {@code channelAcquired} fails the acquire, a throwing
 * {@code channelReleased} fails the release. One handler serves every channel of a pool, possibly on several
 * loops at once: keep per-channel state in the channel (its attributes or pipeline), not in fields.
 */
@FunctionalInterface
public interface ChannelPoolHandler {

    /**
     * A new channel was created and registered, before it connects: add its handlers here. The channel is not
     * lent out yet; {@link #channelAcquired} follows once it is connected.
     *
     * @throws Exception to refuse the channel: it is logged, the channel closed and the acquire that created it
     *         fails
     */
    void channelCreated(Channel channel) throws Exception;

    /**
     * The pool is about to hand {@code channel} to an acquirer (a new channel once connected, an idle one once it
     * passed the health check). Does nothing unless overridden.
     *
     * @throws Exception to refuse the channel: it is closed and the acquire fails with this exception
     */
    default void channelAcquired(Channel channel) throws Exception {
    }

    /**
     * {@code channel} was given back and accepted, just before the pool keeps it idle or closes it. Does nothing
     * unless overridden.
     *
     * @throws Exception to refuse the channel: it is closed and the release fails with this exception
     */
    default void channelReleased(Channel channel) throws Exception {
    }
}
