package io.weir.channel.epoll;

import io.weir.channel.IoEvent;
import io.weir.channel.unix.internal.Readiness;

/**
 * The readiness an {@link EpollIoHandler} reports to an {@link EpollIoHandle}: the events {@code epoll_wait}
 * returned for its descriptor. Readiness is a hint: an operation may still find nothing to do ({@code EAGAIN}).
 *
 * <p>Immutable; one shared instance per set of ready events, so dispatching allocates nothing.
 */
public final class EpollIoEvent implements IoEvent {
    private static final EpollIoEvent[] CACHE = new EpollIoEvent[1 << 6];

    static {
        for (int index = 0; index < CACHE.length; index++) {
            CACHE[index] = new EpollIoEvent(EpollIoOps.ofReady((index & 0x1F) | ((index & 0x20) << 8)));
        }
    }

    private final EpollIoOps ready;
    private final int value;
    /** The event as unix-common's {@link Readiness} flags, for the channels. */
    final int readiness;

    private EpollIoEvent(EpollIoOps ready) {
        this.ready = ready;
        this.value = ready.value();
        this.readiness = readinessOf(value);
    }

    private static int readinessOf(int value) {
        int flags = 0;
        if ((value & EpollIoOps.IN_BIT) != 0) {
            flags |= Readiness.READABLE;
        }
        if ((value & EpollIoOps.OUT_BIT) != 0) {
            flags |= Readiness.WRITABLE;
        }
        if ((value & (EpollIoOps.RDHUP_BIT | EpollIoOps.HUP_BIT)) != 0) {
            flags |= Readiness.PEER_FIN;
        }
        if ((value & EpollIoOps.HUP_BIT) != 0) {
            flags |= Readiness.HANGUP;
        }
        if ((value & EpollIoOps.ERR_BIT) != 0) {
            flags |= Readiness.ERROR;
        }
        return flags;
    }

    /** The event for the kernel's ready bits {@code events}; unknown bits are dropped. */
    static EpollIoEvent of(int events) {
        return CACHE[(events & 0x1F) | ((events >>> 8) & 0x20)];
    }

    /** The ready events (never {@link EpollIoOps#LEVEL_TRIGGERED}). */
    public EpollIoOps ready() {
        return ready;
    }

    /** {@code EPOLLIN}: data to read, a connection to accept, or end of stream. */
    public boolean isReadable() {
        return (value & EpollIoOps.IN_BIT) != 0;
    }

    /** {@code EPOLLOUT}: room to write, or a connect that finished (successfully or not). */
    public boolean isWritable() {
        return (value & EpollIoOps.OUT_BIT) != 0;
    }

    /** {@code EPOLLPRI}: urgent data. */
    public boolean isPriority() {
        return (value & EpollIoOps.PRI_BIT) != 0;
    }

    /** {@code EPOLLRDHUP}: the peer shut down its output; what it sent before is still readable. */
    public boolean isReadHangUp() {
        return (value & EpollIoOps.RDHUP_BIT) != 0;
    }

    /** {@code EPOLLHUP}: both directions are shut down. */
    public boolean isHangUp() {
        return (value & EpollIoOps.HUP_BIT) != 0;
    }

    /** {@code EPOLLERR}: an error is pending on the descriptor. */
    public boolean isError() {
        return (value & EpollIoOps.ERR_BIT) != 0;
    }

    @Override
    public String toString() {
        return "EpollIoEvent(" + EpollIoOps.describe(value) + ')';
    }
}
