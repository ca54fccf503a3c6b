package io.weir.channel.group;

import io.weir.channel.Channel;
import io.weir.channel.ChannelId;
import io.weir.channel.ServerChannel;
import java.util.Set;

/**
 * A named, thread-safe set of open {@link Channel}s that can be written to, flushed and closed as one: a
 * broadcast to every connected client, or closing a server and all its connections at shutdown.
 *
 * <p><b>Membership.</b> A channel leaves the group by itself when it closes, so a group never holds closed
 * channels for long. Channels are members by identity; a group cannot hold two channels with the same
 * {@link ChannelId}.
 *
 * <p><b>Operations.</b> Each operation is started on every member the {@link ChannelMatcher} matches (all
 * members if none is given) and returns at once with a {@link ChannelGroupFuture} reporting the outcome per
 * channel. {@link ServerChannel}s are members like any other but are skipped by {@code write} and
 * {@code flush}, which only make sense on connections; {@code close}, {@code disconnect} and
 * {@code deregister} act on server channels first, so that no new children are accepted while the group's
 * connections are being closed. Channels added or removed while an operation runs may or may not be acted on.
 *
 * <p><b>Threads.</b> Every method may be called from any thread, concurrently, including from a member's event
 * loop. Iteration is weakly consistent: it never throws {@link java.util.ConcurrentModificationException} and
 * sees each channel that stays a member throughout.
 */
public interface ChannelGroup extends Set<Channel> {

    /** The group's name, for logs. */
    String name();

    /**
     * Adds {@code channel} and arranges for it to leave the group when it closes. A channel that is already
     * closed is not added. Adding a member again changes nothing.
     *
     * @return whether the channel became a member
     * @throws NullPointerException if {@code channel} is null
     * @throws IllegalArgumentException if another member has the same {@link ChannelId}
     */
    @Override
    boolean add(Channel channel);

    /**
     * Removes {@code o} if it is a member; the channel is not closed, and the group no longer watches it.
     *
     * @return whether it was a member
     */
    @Override
    boolean remove(Object o);

    /** The member with id {@code id}, or {@code null}. */
    Channel find(ChannelId id);

    /**
     * {@link #write(Object, ChannelMatcher) write(msg, ChannelMatchers.all())}.
     *
     * @throws NullPointerException if {@code msg} is null
     */
    default ChannelGroupFuture write(Object msg) {
        return write(msg, ChannelMatchers.all());
    }

    /**
     * Queues {@code msg} for writing on every matched member that is not a {@link ServerChannel}; nothing is
     * sent until {@link #flush(ChannelMatcher)}.
     *
     * <p>Ownership of {@code msg} passes to the group, which releases it once before returning, whether it
     * matched any channel or not and whether this method throws or not. Each matched channel gets its own
     * reference: a {@link io.weir.buffer.ByteBuf} or {@link io.weir.buffer.ByteBufHolder} as a retained
     * duplicate (so each channel reads it from the same reader index), any other
     * {@link io.weir.util.ReferenceCounted} retained once; each channel releases its reference once written
     * or failed. Other messages are handed to every channel as they are and must be safe to share.
     *
     * @return the future of the writes, which completes once every matched channel has written (or failed to
     *         write) the message
     * @throws NullPointerException if {@code msg} or {@code matcher} is null
     */
    ChannelGroupFuture write(Object msg, ChannelMatcher matcher);

    /** {@link #flush(ChannelMatcher) flush(ChannelMatchers.all())}. */
    default ChannelGroup flush() {
        return flush(ChannelMatchers.all());
    }

    /**
     * Flushes every matched member that is not a {@link ServerChannel}.
     *
     * @return this group
     * @throws NullPointerException if {@code matcher} is null
     */
    ChannelGroup flush(ChannelMatcher matcher);

    /**
     * {@link #writeAndFlush(Object, ChannelMatcher) writeAndFlush(msg, ChannelMatchers.all())}.
     *
     * @throws NullPointerException if {@code msg} is null
     */
    default ChannelGroupFuture writeAndFlush(Object msg) {
        return writeAndFlush(msg, ChannelMatchers.all());
    }

    /**
     * {@link #write(Object, ChannelMatcher) write} and flush on each matched member that is not a
     * {@link ServerChannel}, with the same ownership rules for {@code msg}.
     *
     * @return the future of the writes
     * @throws NullPointerException if {@code msg} or {@code matcher} is null
     */
    ChannelGroupFuture writeAndFlush(Object msg, ChannelMatcher matcher);

    /** {@link #disconnect(ChannelMatcher) disconnect(ChannelMatchers.all())}. */
    default ChannelGroupFuture disconnect() {
        return disconnect(ChannelMatchers.all());
    }

    /**
     * Disconnects every matched member, server channels first (a channel without a notion of disconnection
     * closes instead, see {@link Channel#disconnect()}).
     *
     * @throws NullPointerException if {@code matcher} is null
     */
    ChannelGroupFuture disconnect(ChannelMatcher matcher);

    /** {@link #close(ChannelMatcher) close(ChannelMatchers.all())}. */
    default ChannelGroupFuture close() {
        return close(ChannelMatchers.all());
    }

    /**
     * Closes every matched member, server channels first so that they stop accepting before their children
     * are closed. Closed members leave the group as their closes complete.
     *
     * @throws NullPointerException if {@code matcher} is null
     */
    ChannelGroupFuture close(ChannelMatcher matcher);

    /** {@link #deregister(ChannelMatcher) deregister(ChannelMatchers.all())}. */
    default ChannelGroupFuture deregister() {
        return deregister(ChannelMatchers.all());
    }

    /**
     * Deregisters every matched member from its event loop, server channels first; they stay members.
     *
     * @throws NullPointerException if {@code matcher} is null
     */
    ChannelGroupFuture deregister(ChannelMatcher matcher);

    /** {@link #newCloseFuture(ChannelMatcher) newCloseFuture(ChannelMatchers.all())}. */
    default ChannelGroupFuture newCloseFuture() {
        return newCloseFuture(ChannelMatchers.all());
    }

    /**
     * A future that completes, always successfully, once every matched member at the time of this call has
     * closed (made of their {@linkplain Channel#closeFuture() close futures}); it closes nothing itself.
     * Channels added later are not waited for.
     *
     * @throws NullPointerException if {@code matcher} is null
     */
    ChannelGroupFuture newCloseFuture(ChannelMatcher matcher);
}
