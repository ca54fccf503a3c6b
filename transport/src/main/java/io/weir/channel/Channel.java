package io.weir.channel;

import io.weir.buffer.ByteBufAllocator;
import java.net.SocketAddress;

/**
 * A connection, a listening socket, or anything else that reads and writes through a
 * {@link ChannelPipeline}. A channel gets its {@link EventLoop} when it is created and keeps it for life:
 * every handler call for the channel happens on that loop's thread, so handlers need no locks.
 *
 * <p>Life cycle: open &rarr; registered (added to its loop's I/O handler) &rarr; active (bound or connected)
 * &rarr; inactive &rarr; closed &rarr; unregistered. A channel may be deregistered and registered again on
 * the same loop; it cannot move to another loop.
 *
 * <p>All methods are thread-safe. Operations return at once and report their outcome through a
 * {@link ChannelFuture}.
 */
public interface Channel extends AttributeMap, ChannelOutboundInvoker, Comparable<Channel> {

    /** The channel's unique id. */
    ChannelId id();

    /** The loop this channel was created on; it never changes. */
    EventLoop eventLoop();

    /** The channel that created this one (a server channel for an accepted connection), or {@code null}. */
    Channel parent();

    /** The channel's settings. */
    ChannelConfig config();

    /** What this kind of channel is like. */
    ChannelMetadata metadata();

    /** Whether the channel is open (may still become active). */
    boolean isOpen();

    /** Whether the channel is registered with its event loop's I/O handler. */
    boolean isRegistered();

    /** Whether the channel is active: bound (servers) or connected (connections). */
    boolean isActive();

    /** The local address, or {@code null} if not bound. */
    SocketAddress localAddress();

    /** The remote address, or {@code null} if not connected. */
    SocketAddress remoteAddress();

    /** A future completed when the channel has closed; it never fails. */
    ChannelFuture closeFuture();

    /**
     * Whether a write would be sent soon: {@code false} while more than the
     * {@linkplain ChannelOption#WRITE_BUFFER_WATER_MARK high water mark} is queued (or a
     * {@linkplain #setUserDefinedWritability user-defined} bit is cleared), and always once closed. Writing
     * to an unwritable channel still works; it just queues more memory.
     */
    boolean isWritable();

    /**
     * Whether user-defined writability bit {@code index} is set to writable (see
     * {@link #setUserDefinedWritability}); {@code false} once the channel closed or its output shut down.
     * Any thread.
     *
     * @throws IllegalArgumentException unless {@code 1 <= index <= 31}
     */
    boolean getUserDefinedWritability(int index);

    /**
     * Sets user-defined writability bit {@code index} (1 to 31; bit 0 belongs to the water marks). While any
     * bit is unwritable, {@link #isWritable()} is {@code false} whatever is queued: a handler uses this to
     * stop the writers above it for reasons of its own (a peer's flow-control window, a downstream queue).
     * Each change of {@link #isWritable()} fires {@link ChannelHandler#channelWritabilityChanged} through the
     * whole pipeline, as a task on the event loop, never from inside this call; changes that cancel out
     * before that task runs fire it once. Any thread; a no-op once the channel closed or its output shut
     * down, since nothing can be written then anyway.
     *
     * @throws IllegalArgumentException unless {@code 1 <= index <= 31}
     */
    void setUserDefinedWritability(int index, boolean writable);

    /** Bytes that can be queued before {@link #isWritable()} turns {@code false}; 0 if it already is. */
    long bytesBeforeUnwritable();

    /** Bytes that must be sent before {@link #isWritable()} turns {@code true}; 0 if it already is. */
    long bytesBeforeWritable();

    /**
     * Bytes of this channel's output handed to its transport since it was created (a message the transport takes
     * whole counts its estimated size). It only grows, as the peer reads: a handler that compares two readings
     * learns whether queued output moved, which is how a write-progress timeout tells a slow reader from one that
     * stopped. Read it on the channel's event loop; 0 for a channel that does not count, and once the output was
     * shut down or the channel closed (nothing can be owed then).
     */
    default long writtenBytes() {
        return 0;
    }

    /** The pipeline of handlers of this channel. */
    ChannelPipeline pipeline();

    /** {@link ChannelConfig#getAllocator()}. */
    default ByteBufAllocator alloc() {
        return config().getAllocator();
    }

    @Override
    Channel read();

    @Override
    Channel flush();
}
