package io.weir.channel.group;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufHolder;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelId;
import io.weir.channel.ServerChannel;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.ReferenceCounted;
import io.weir.util.concurrent.EventExecutor;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * The standard {@link ChannelGroup}: members are kept in two concurrent maps keyed by {@link ChannelId}, one
 * for {@link ServerChannel}s and one for all other channels, so that writes never look at server channels and
 * closes reach them first. Every method is thread-safe and returns without waiting for any channel; channels on
 * many event loops may join and leave at once.
 *
 * <p><b>Leaving on close.</b> {@link #add} registers a listener on the channel's
 * {@linkplain Channel#closeFuture() close future} that removes the channel when it closes; {@link #remove}
 * takes that listener off again, so a group that channels pass through keeps no reference to them and they
 * keep none to it.
 *
 * <p><b>Futures.</b> Every {@link ChannelGroupFuture} this group returns notifies its listeners on the
 * executor given to the constructor. {@link io.weir.util.concurrent.GlobalEventExecutor#INSTANCE} suits most
 * uses; {@link io.weir.util.concurrent.ImmediateEventExecutor#INSTANCE} runs listeners on the event loop of
 * the channel that finished last (keep them short) and lets any thread wait. An event loop of the group's
 * channels is a poor choice: waiting on it for the group would block one of the channels it waits for.
 *
 * <p><b>Staying closed.</b> A group built with {@code stayClosed} remembers that {@link #close(ChannelMatcher)}
 * was called (with any matcher) and from then on closes every channel added to it, such as a connection
 * accepted just while the server was being shut down, which would otherwise escape the close.
 *
 * <p>Equality is identity, as for channels: two groups with the same members are different groups.
 */
public final class DefaultChannelGroup extends AbstractSet<Channel> implements ChannelGroup {
    private final String name;
    private final EventExecutor executor;
    private final boolean stayClosed;
    private final ConcurrentMap<ChannelId, Membership> serverChannels = new ConcurrentHashMap<>();
    private final ConcurrentMap<ChannelId, Membership> nonServerChannels = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /**
     * A group whose futures notify their listeners on {@code executor}; channels may be added after
     * {@link #close()}.
     *
     * @throws NullPointerException if {@code name} or {@code executor} is null
     */
    public DefaultChannelGroup(String name, EventExecutor executor) {
        this(name, executor, false);
    }

    /**
     * A group whose futures notify their listeners on {@code executor}; with {@code stayClosed}, channels added
     * once {@link #close(ChannelMatcher)} has been called are closed at once.
     *
     * @throws NullPointerException if {@code name} or {@code executor} is null
     */
    public DefaultChannelGroup(String name, EventExecutor executor, boolean stayClosed) {
        this.name = Objects.requireNonNull(name, "name");
        this.executor = Objects.requireNonNull(executor, "executor");
        this.stayClosed = stayClosed;
    }

    @Override
    public String name() {
        return name;
    }

    private ConcurrentMap<ChannelId, Membership> membersLike(Channel channel) {
        return channel instanceof ServerChannel ? serverChannels : nonServerChannels;
    }

    // ---------------------------------------------------------------- membership

    @Override
    public boolean add(Channel channel) {
        ChannelFuture closeFuture = Objects.requireNonNull(channel, "channel").closeFuture();
        if (closeFuture.isDone()) {
            return false;
        }
        ConcurrentMap<ChannelId, Membership> members = membersLike(channel);
        ChannelId id = channel.id();
        Membership membership = new Membership(channel);
        Membership existing = members.putIfAbsent(id, membership);
        if (existing != null) {
            if (existing.channel != channel) {
                throw new IllegalArgumentException(channel + " has the id of member " + existing.channel
                        + " of group " + name + "; a group cannot hold two channels with one id");
            }
            return false;
        }
        closeFuture.addListener(membership);
        // The channel may have closed since the check above: its listener may not have run yet (it runs on the
        // channel's loop), but the caller must find the group without the channel when this returns.
        boolean closedMeanwhile = closeFuture.isDone();
        if (closedMeanwhile) {
            members.remove(id, membership);
        }
        // Whoever ended this membership before addListener (a remove() between putIfAbsent and addListener, or
        // the line above) found no listener to take off: take it off here.
        if (members.get(id) != membership) {
            closeFuture.removeListener(membership);
        }
        // Checked after joining, while close() sets the flag before it walks the members: a channel joining
        // during close() is either seen by that walk or sees the flag here.
        if (stayClosed && closed && !closedMeanwhile) {
            channel.close();
        }
        return !closedMeanwhile;
    }

    @Override
    public boolean remove(Object o) {
        if (!(o instanceof Channel channel)) {
            return false;
        }
        ConcurrentMap<ChannelId, Membership> members = membersLike(channel);
        Membership membership = members.get(channel.id());
        if (membership == null || membership.channel != channel || !members.remove(channel.id(), membership)) {
            return false;
        }
        channel.closeFuture().removeListener(membership);
        return true;
    }

    @Override
    public boolean contains(Object o) {
        if (!(o instanceof Channel channel)) {
            return false;
        }
        Membership membership = membersLike(channel).get(channel.id());
        return membership != null && membership.channel == channel;
    }

    @Override
    public Channel find(ChannelId id) {
        Membership membership = nonServerChannels.get(id);
        if (membership == null) {
            membership = serverChannels.get(id);
        }
        return membership == null ? null : membership.channel;
    }

    /** The number of members at some moment during the call. */
    @Override
    public int size() {
        return nonServerChannels.size() + serverChannels.size();
    }

    @Override
    public boolean isEmpty() {
        return nonServerChannels.isEmpty() && serverChannels.isEmpty();
    }

    /** Removes every member (see {@link #remove}); closes none. */
    @Override
    public void clear() {
        for (Membership m : serverChannels.values()) {
            remove(m.channel);
        }
        for (Membership m : nonServerChannels.values()) {
            remove(m.channel);
        }
    }

    /** The members, server channels first; weakly consistent, and {@link Iterator#remove()} works. */
    @Override
    public Iterator<Channel> iterator() {
        return new MemberIterator();
    }

    // ---------------------------------------------------------------- operations

    @Override
    public ChannelGroupFuture write(Object msg, ChannelMatcher matcher) {
        return write(msg, matcher, false);
    }

    @Override
    public ChannelGroupFuture writeAndFlush(Object msg, ChannelMatcher matcher) {
        return write(msg, matcher, true);
    }

    private ChannelGroupFuture write(Object msg, ChannelMatcher matcher, boolean flush) {
        Objects.requireNonNull(msg, "msg");
        LinkedHashMap<Channel, ChannelFuture> futures = new LinkedHashMap<>();
        try {
            Objects.requireNonNull(matcher, "matcher");
            for (Membership m : nonServerChannels.values()) {
                Channel channel = m.channel;
                if (matcher.matches(channel)) {
                    Object own = referenceFor(msg);
                    futures.put(channel, flush ? channel.writeAndFlush(own) : channel.write(own));
                }
            }
        } finally {
            // The caller's reference: every channel holds its own by now.
            ReferenceCountUtil.release(msg);
        }
        return DefaultChannelGroupFuture.of(this, futures, executor);
    }

    /** A reference to {@code msg} for one channel, which releases it; a buffer gets its own indexes. */
    private static Object referenceFor(Object msg) {
        if (msg instanceof ByteBuf buf) {
            return buf.retainedDuplicate();
        }
        if (msg instanceof ByteBufHolder holder) {
            return holder.retainedDuplicate();
        }
        if (msg instanceof ReferenceCounted counted) {
            return counted.retain();
        }
        return msg;
    }

    @Override
    public ChannelGroup flush(ChannelMatcher matcher) {
        Objects.requireNonNull(matcher, "matcher");
        for (Membership m : nonServerChannels.values()) {
            if (matcher.matches(m.channel)) {
                m.channel.flush();
            }
        }
        return this;
    }

    @Override
    public ChannelGroupFuture disconnect(ChannelMatcher matcher) {
        return serversFirst(matcher, Channel::disconnect);
    }

    @Override
    public ChannelGroupFuture close(ChannelMatcher matcher) {
        Objects.requireNonNull(matcher, "matcher");
        if (stayClosed) {
            // Before walking the members: see add().
            closed = true;
        }
        return serversFirst(matcher, Channel::close);
    }

    @Override
    public ChannelGroupFuture deregister(ChannelMatcher matcher) {
        return serversFirst(matcher, Channel::deregister);
    }

    @Override
    public ChannelGroupFuture newCloseFuture(ChannelMatcher matcher) {
        return serversFirst(matcher, Channel::closeFuture);
    }

    private ChannelGroupFuture serversFirst(ChannelMatcher matcher, Function<Channel, ChannelFuture> operation) {
        Objects.requireNonNull(matcher, "matcher");
        LinkedHashMap<Channel, ChannelFuture> futures = new LinkedHashMap<>();
        for (Membership m : serverChannels.values()) {
            if (matcher.matches(m.channel)) {
                futures.put(m.channel, operation.apply(m.channel));
            }
        }
        for (Membership m : nonServerChannels.values()) {
            if (matcher.matches(m.channel)) {
                futures.put(m.channel, operation.apply(m.channel));
            }
        }
        return DefaultChannelGroupFuture.of(this, futures, executor);
    }

    // ---------------------------------------------------------------- identity

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }

    @Override
    public String toString() {
        return "DefaultChannelGroup(name: " + name + ", size: " + size() + ')';
    }

    /**
     * One channel's membership; as the close-future listener it removes exactly this membership, so a late
     * notification can never remove a later membership of the same channel.
     */
    private final class Membership implements ChannelFutureListener {
        final Channel channel;

        Membership(Channel channel) {
            this.channel = channel;
        }

        @Override
        public void operationComplete(ChannelFuture future) {
            membersLike(channel).remove(channel.id(), this);
        }
    }

    /** Server channels, then the others; removal goes through {@link DefaultChannelGroup#remove}. */
    private final class MemberIterator implements Iterator<Channel> {
        private final Iterator<Membership> servers = serverChannels.values().iterator();
        private final Iterator<Membership> others = nonServerChannels.values().iterator();
        private Channel last;

        @Override
        public boolean hasNext() {
            return servers.hasNext() || others.hasNext();
        }

        @Override
        public Channel next() {
            if (servers.hasNext()) {
                last = servers.next().channel;
            } else if (others.hasNext()) {
                last = others.next().channel;
            } else {
                throw new NoSuchElementException();
            }
            return last;
        }

        @Override
        public void remove() {
            if (last == null) {
                throw new IllegalStateException("next() not called, or remove() called already");
            }
            DefaultChannelGroup.this.remove(last);
            last = null;
        }
    }
}
