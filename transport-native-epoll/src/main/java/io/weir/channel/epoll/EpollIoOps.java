package io.weir.channel.epoll;

import io.weir.channel.IoOps;

/**
 * A set of epoll events a handle asks an {@link EpollIoHandler} to watch, given to
 * {@link io.weir.channel.IoRegistration#submit}; also the ready set of an {@link EpollIoEvent}.
 *
 * <p><b>Triggering.</b> Notification is edge-triggered ({@code EPOLLET}) unless the set contains
 * {@link #LEVEL_TRIGGERED}: with edges, a handle hears about readiness once per change and must read or write
 * until {@code EAGAIN} before it hears again; with levels, it hears on every wait while the condition holds.
 * {@code LEVEL_TRIGGERED} is Weir's flag, never passed to the kernel.
 *
 * <p>The bit values are the kernel's ({@code <sys/epoll.h>}; the C build asserts them). {@code EPOLLERR} and
 * {@code EPOLLHUP} are always reported whether asked for or not. Immutable; every set is a shared instance.
 */
public final class EpollIoOps implements IoOps {
    static final int IN_BIT = 0x001;
    static final int PRI_BIT = 0x002;
    static final int OUT_BIT = 0x004;
    static final int ERR_BIT = 0x008;
    static final int HUP_BIT = 0x010;
    static final int RDHUP_BIT = 0x2000;
    static final int ET_BIT = 1 << 31;
    /** Weir's own bit, outside every bit Linux defines for epoll events. */
    static final int LEVEL_TRIGGERED_BIT = 1 << 24;
    static final int KERNEL_BITS = IN_BIT | PRI_BIT | OUT_BIT | ERR_BIT | HUP_BIT | RDHUP_BIT;
    static final int ALL_BITS = KERNEL_BITS | LEVEL_TRIGGERED_BIT;

    /*
     * Cache index: the seven meaningful bits packed together.
     *   bit 0-4 <- IN, PRI, OUT, ERR, HUP (bits 0-4 of the value)
     *   bit 5   <- RDHUP (bit 13)
     *   bit 6   <- LEVEL_TRIGGERED (bit 24)
     */
    private static final EpollIoOps[] CACHE = new EpollIoOps[1 << 7];

    static {
        for (int index = 0; index < CACHE.length; index++) {
            int value = (index & 0x1F) | ((index & 0x20) << 8) | ((index & 0x40) << 18);
            CACHE[index] = new EpollIoOps(value);
        }
    }

    /** Nothing: the handle stays registered but hears only errors and hang-ups. */
    public static final EpollIoOps NONE = CACHE[0];
    /** {@code EPOLLIN}: readable, or a connection to accept. */
    public static final EpollIoOps EPOLLIN = valueOf(IN_BIT);
    /** {@code EPOLLOUT}: writable, or a non-blocking connect finished. */
    public static final EpollIoOps EPOLLOUT = valueOf(OUT_BIT);
    /** {@code EPOLLPRI}: urgent data. */
    public static final EpollIoOps EPOLLPRI = valueOf(PRI_BIT);
    /** {@code EPOLLRDHUP}: the peer shut down its writing side (half-closure). */
    public static final EpollIoOps EPOLLRDHUP = valueOf(RDHUP_BIT);
    /** {@code EPOLLERR}: an error is pending (always reported). */
    public static final EpollIoOps EPOLLERR = valueOf(ERR_BIT);
    /** {@code EPOLLHUP}: hang-up (always reported). */
    public static final EpollIoOps EPOLLHUP = valueOf(HUP_BIT);
    /** Asks for level-triggered notification of the other events of the set (see the class comment). */
    public static final EpollIoOps LEVEL_TRIGGERED = valueOf(LEVEL_TRIGGERED_BIT);

    private final int value;

    private EpollIoOps(int value) {
        this.value = value;
    }

    private static int index(int value) {
        return (value & 0x1F) | ((value >>> 8) & 0x20) | ((value >>> 18) & 0x40);
    }

    /**
     * The set whose bits are {@code value}: kernel event bits and possibly {@link #LEVEL_TRIGGERED}'s.
     *
     * @throws IllegalArgumentException for any other bit (including {@code EPOLLET}, which is the default)
     */
    public static EpollIoOps valueOf(int value) {
        if ((value & ~ALL_BITS) != 0) {
            throw new IllegalArgumentException("value: 0x" + Integer.toHexString(value) + " (expected: a combination"
                    + " of EPOLLIN, EPOLLPRI, EPOLLOUT, EPOLLERR, EPOLLHUP, EPOLLRDHUP and LEVEL_TRIGGERED)");
        }
        return CACHE[index(value)];
    }

    /** The set of the known bits of {@code events} as reported by {@code epoll_wait}; others are dropped. */
    static EpollIoOps ofReady(int events) {
        return CACHE[index(events & KERNEL_BITS)];
    }

    /** The bits of this set. */
    public int value() {
        return value;
    }

    /** Whether notification is edge-triggered (the set lacks {@link #LEVEL_TRIGGERED}). */
    public boolean isEdgeTriggered() {
        return (value & LEVEL_TRIGGERED_BIT) == 0;
    }

    /** What {@code epoll_ctl} gets: the kernel bits, plus {@code EPOLLET} unless level-triggered. */
    int kernelEvents() {
        return (value & KERNEL_BITS) | ((value & LEVEL_TRIGGERED_BIT) != 0 ? 0 : ET_BIT);
    }

    /** This set plus {@code other}'s bits. */
    public EpollIoOps with(EpollIoOps other) {
        return CACHE[index(value | other.value)];
    }

    /** This set minus {@code other}'s bits. */
    public EpollIoOps without(EpollIoOps other) {
        return CACHE[index(value & ~other.value)];
    }

    /** Whether every bit of {@code other} is in this set (always true for {@link #NONE}). */
    public boolean contains(EpollIoOps other) {
        return (value & other.value) == other.value;
    }

    /** Whether this set and {@code other} share a bit. */
    public boolean intersects(EpollIoOps other) {
        return (value & other.value) != 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EpollIoOps && ((EpollIoOps) o).value == value;
    }

    @Override
    public int hashCode() {
        return value;
    }

    @Override
    public String toString() {
        return "EpollIoOps(" + describe(value) + ')';
    }

    static String describe(int value) {
        if (value == 0) {
            return "NONE";
        }
        StringBuilder sb = new StringBuilder();
        append(sb, value, IN_BIT, "EPOLLIN");
        append(sb, value, PRI_BIT, "EPOLLPRI");
        append(sb, value, OUT_BIT, "EPOLLOUT");
        append(sb, value, ERR_BIT, "EPOLLERR");
        append(sb, value, HUP_BIT, "EPOLLHUP");
        append(sb, value, RDHUP_BIT, "EPOLLRDHUP");
        append(sb, value, LEVEL_TRIGGERED_BIT, "LEVEL_TRIGGERED");
        return sb.toString();
    }

    private static void append(StringBuilder sb, int value, int bit, String name) {
        if ((value & bit) != 0) {
            if (sb.length() > 0) {
                sb.append('|');
            }
            sb.append(name);
        }
    }
}
