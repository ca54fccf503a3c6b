package io.weir.channel.nio;

import io.weir.channel.IoOps;
import java.nio.channels.SelectionKey;

/**
 * A set of NIO interest operations ({@link SelectionKey#OP_READ}, {@link SelectionKey#OP_WRITE},
 * {@link SelectionKey#OP_CONNECT}, {@link SelectionKey#OP_ACCEPT}), given to
 * {@link io.weir.channel.IoRegistration#submit} of a {@link NioIoHandler} registration.
 *
 * <p>Immutable; every set is a shared instance, so combining sets on the event loop allocates nothing.
 */
public final class NioIoOps implements IoOps {
    static final int ALL_OPS =
            SelectionKey.OP_READ | SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT | SelectionKey.OP_ACCEPT;
    // Indexed by value: the four bits fit below 32.
    private static final NioIoOps[] CACHE = new NioIoOps[ALL_OPS + 1];

    static {
        for (int value = 0; value < CACHE.length; value++) {
            if ((value & ~ALL_OPS) == 0) {
                CACHE[value] = new NioIoOps(value);
            }
        }
    }

    /** No interest: the handle stays registered but hears nothing. */
    public static final NioIoOps NONE = CACHE[0];
    /** {@link SelectionKey#OP_READ}. */
    public static final NioIoOps READ = CACHE[SelectionKey.OP_READ];
    /** {@link SelectionKey#OP_WRITE}. */
    public static final NioIoOps WRITE = CACHE[SelectionKey.OP_WRITE];
    /** {@link SelectionKey#OP_CONNECT}. */
    public static final NioIoOps CONNECT = CACHE[SelectionKey.OP_CONNECT];
    /** {@link SelectionKey#OP_ACCEPT}. */
    public static final NioIoOps ACCEPT = CACHE[SelectionKey.OP_ACCEPT];
    /** {@link SelectionKey#OP_READ} and {@link SelectionKey#OP_WRITE}. */
    public static final NioIoOps READ_AND_WRITE = CACHE[SelectionKey.OP_READ | SelectionKey.OP_WRITE];

    private final int value;

    private NioIoOps(int value) {
        this.value = value;
    }

    /**
     * The set whose {@link SelectionKey} bits are {@code ops}.
     *
     * @throws IllegalArgumentException if {@code ops} has bits other than the four NIO operations
     */
    public static NioIoOps valueOf(int ops) {
        if ((ops & ~ALL_OPS) != 0) {
            throw new IllegalArgumentException("ops: 0x" + Integer.toHexString(ops)
                    + " (expected: a combination of SelectionKey.OP_READ, OP_WRITE, OP_CONNECT, OP_ACCEPT)");
        }
        return CACHE[ops];
    }

    /** The {@link SelectionKey} bits of this set. */
    public int value() {
        return value;
    }

    /** This set plus {@code other}'s operations. */
    public NioIoOps with(NioIoOps other) {
        return CACHE[value | other.value];
    }

    /** This set minus {@code other}'s operations. */
    public NioIoOps without(NioIoOps other) {
        return CACHE[value & ~other.value];
    }

    /** Whether every operation of {@code other} is in this set (always true for {@link #NONE}). */
    public boolean contains(NioIoOps other) {
        return (value & other.value) == other.value;
    }

    /** Whether this set and {@code other} share at least one operation. */
    public boolean intersects(NioIoOps other) {
        return (value & other.value) != 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NioIoOps && ((NioIoOps) o).value == value;
    }

    @Override
    public int hashCode() {
        return value;
    }

    @Override
    public String toString() {
        return "NioIoOps(" + describe(value) + ')';
    }

    static String describe(int ops) {
        if (ops == 0) {
            return "NONE";
        }
        StringBuilder sb = new StringBuilder();
        append(sb, ops, SelectionKey.OP_READ, "READ");
        append(sb, ops, SelectionKey.OP_WRITE, "WRITE");
        append(sb, ops, SelectionKey.OP_CONNECT, "CONNECT");
        append(sb, ops, SelectionKey.OP_ACCEPT, "ACCEPT");
        return sb.toString();
    }

    private static void append(StringBuilder sb, int ops, int bit, String name) {
        if ((ops & bit) != 0) {
            if (sb.length() > 0) {
                sb.append('|');
            }
            sb.append(name);
        }
    }
}
