package io.weir.channel.kqueue;

import io.weir.channel.IoOps;

/**
 * The kqueue filters a handle asks a {@link KQueueIoHandler} to keep for its descriptor, given to
 * {@link io.weir.channel.IoRegistration#submit}.
 *
 * <p><b>Triggering.</b> Every filter is added with {@code EV_CLEAR}: edge-triggered. A handle hears about
 * readiness once per change (and once when the filter is added while the descriptor is ready already), and must
 * read or write until {@code EAGAIN} before it hears again.
 *
 * <p>Immutable; every set is a shared instance.
 */
public final class KQueueIoOps implements IoOps {
    static final int READ_BIT = 1;
    static final int WRITE_BIT = 2;
    static final int ALL_BITS = READ_BIT | WRITE_BIT;

    private static final KQueueIoOps[] CACHE = {
        new KQueueIoOps(0), new KQueueIoOps(READ_BIT), new KQueueIoOps(WRITE_BIT), new KQueueIoOps(ALL_BITS),
    };

    /** No filter: the handle stays registered and hears nothing. */
    public static final KQueueIoOps NONE = CACHE[0];
    /** {@code EVFILT_READ}: readable, a connection to accept, or end of stream. */
    public static final KQueueIoOps READ = CACHE[READ_BIT];
    /** {@code EVFILT_WRITE}: room to write, or a non-blocking connect finished. */
    public static final KQueueIoOps WRITE = CACHE[WRITE_BIT];

    private final int value;

    private KQueueIoOps(int value) {
        this.value = value;
    }

    /**
     * The set whose bits are {@code value}.
     *
     * @throws IllegalArgumentException for a bit other than {@link #READ}'s and {@link #WRITE}'s
     */
    public static KQueueIoOps valueOf(int value) {
        if ((value & ~ALL_BITS) != 0) {
            throw new IllegalArgumentException("value: 0x" + Integer.toHexString(value)
                    + " (expected: a combination of READ (1) and WRITE (2))");
        }
        return CACHE[value];
    }

    /** The bits of this set. */
    public int value() {
        return value;
    }

    /** This set plus {@code other}'s filters. */
    public KQueueIoOps with(KQueueIoOps other) {
        return CACHE[value | other.value];
    }

    /** This set minus {@code other}'s filters. */
    public KQueueIoOps without(KQueueIoOps other) {
        return CACHE[value & ~other.value];
    }

    /** Whether every filter of {@code other} is in this set (always true for {@link #NONE}). */
    public boolean contains(KQueueIoOps other) {
        return (value & other.value) == other.value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KQueueIoOps && ((KQueueIoOps) o).value == value;
    }

    @Override
    public int hashCode() {
        return value;
    }

    @Override
    public String toString() {
        return "KQueueIoOps(" + describe(value) + ')';
    }

    static String describe(int value) {
        switch (value) {
            case 0: return "NONE";
            case READ_BIT: return "READ";
            case WRITE_BIT: return "WRITE";
            default: return "READ|WRITE";
        }
    }
}
