package io.weir.channel.epoll;

import io.weir.channel.IoEvent;
import io.weir.channel.IoOps;
import io.weir.channel.IoRegistration;
import io.weir.channel.unix.internal.AbstractUnixChannelHandle;
import io.weir.channel.unix.internal.Readiness;
import io.weir.channel.unix.internal.UnixTransport;

/**
 * An epoll channel's face towards the {@link EpollIoHandler}: hands each {@link EpollIoEvent} to the channel's
 * {@link Readiness} as the flags the event stands for (computed once per cached event), and {@link #TRANSPORT}
 * tells unix-common's channel bases what is epoll's: this handle, the events each interest watches
 * ({@code EPOLLIN}, {@code EPOLLOUT}, {@code EPOLLRDHUP}), and the library check.
 */
final class EpollChannelHandle extends AbstractUnixChannelHandle implements EpollIoHandle {
    /** Epoll as unix-common's channels see it. */
    static final UnixTransport TRANSPORT = new UnixTransport("EpollIoHandler.newFactory()", EpollChannelHandle.class,
            EpollChannelHandle::opsFor, EpollChannelHandle::new, Epoll::ensureAvailability);

    private EpollChannelHandle(Readiness readiness) {
        super(readiness);
    }

    /** The {@link EpollIoOps} of an interest combination. */
    private static IoOps opsFor(int interest) {
        return EpollIoOps.valueOf(((interest & UnixTransport.INTEREST_READ) != 0 ? EpollIoOps.IN_BIT : 0)
                | ((interest & UnixTransport.INTEREST_WRITE) != 0 ? EpollIoOps.OUT_BIT : 0)
                | ((interest & UnixTransport.INTEREST_PEER_FIN) != 0 ? EpollIoOps.RDHUP_BIT : 0));
    }

    @Override
    public void handle(IoRegistration registration, IoEvent event) {
        readiness.ready(((EpollIoEvent) event).readiness, 0);
    }
}
