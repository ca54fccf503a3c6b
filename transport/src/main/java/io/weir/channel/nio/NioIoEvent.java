package io.weir.channel.nio;

import io.weir.channel.IoEvent;
import java.nio.channels.SelectionKey;

/**
 * The readiness a {@link NioIoHandler} reports to a {@link NioIoHandle}: the ready operations of its
 * {@link SelectionKey}. Readiness is a hint, as with NIO itself: an operation may still find nothing to do.
 *
 * <p>Immutable; one shared instance per set of ready operations, so dispatching allocates nothing.
 */
public final class NioIoEvent implements IoEvent {
    // Indexed by the ready-ops bits, like NioIoOps's own cache.
    private static final NioIoEvent[] CACHE = new NioIoEvent[NioIoOps.ALL_OPS + 1];

    static {
        for (int value = 0; value < CACHE.length; value++) {
            if ((value & ~NioIoOps.ALL_OPS) == 0) {
                CACHE[value] = new NioIoEvent(NioIoOps.valueOf(value));
            }
        }
    }

    private final NioIoOps readyOps;

    private NioIoEvent(NioIoOps readyOps) {
        this.readyOps = readyOps;
    }

    /**
     * The event for the ready operations {@code readyOps} (bits of {@link SelectionKey}).
     *
     * @throws IllegalArgumentException if {@code readyOps} has bits other than the four NIO operations
     */
    public static NioIoEvent of(int readyOps) {
        NioIoOps ops = NioIoOps.valueOf(readyOps);
        return CACHE[ops.value()];
    }

    /** {@link #of} for bits that came from a {@link SelectionKey}, so need no check. */
    static NioIoEvent ofReadyOps(int readyOps) {
        return CACHE[readyOps];
    }

    /** The ready operations. */
    public NioIoOps readyOps() {
        return readyOps;
    }

    /** Whether the channel is ready for reading ({@link SelectionKey#OP_READ}). */
    public boolean isReadable() {
        return (readyOps.value() & SelectionKey.OP_READ) != 0;
    }

    /** Whether the channel is ready for writing ({@link SelectionKey#OP_WRITE}). */
    public boolean isWritable() {
        return (readyOps.value() & SelectionKey.OP_WRITE) != 0;
    }

    /** Whether a connection attempt can be finished ({@link SelectionKey#OP_CONNECT}). */
    public boolean isConnectable() {
        return (readyOps.value() & SelectionKey.OP_CONNECT) != 0;
    }

    /** Whether a connection can be accepted ({@link SelectionKey#OP_ACCEPT}). */
    public boolean isAcceptable() {
        return (readyOps.value() & SelectionKey.OP_ACCEPT) != 0;
    }

    @Override
    public String toString() {
        return "NioIoEvent(" + NioIoOps.describe(readyOps.value()) + ')';
    }
}
