package io.weir.channel.kqueue;

import io.weir.channel.IoEvent;
import io.weir.channel.IoOps;
import io.weir.channel.IoRegistration;
import io.weir.channel.unix.Errors;
import io.weir.channel.unix.FileDescriptor;
import io.weir.channel.unix.internal.AbstractUnixChannelHandle;
import io.weir.channel.unix.internal.Readiness;
import io.weir.channel.unix.internal.UnixTransport;
import io.weir.util.platform.LoopLogger;
import java.lang.System.Logger.Level;

/**
 * A kqueue channel's face towards the {@link KQueueIoHandler}: hands each {@link KQueueIoEvent} to the channel's
 * {@link Readiness} with the error number it carried, and {@link #TRANSPORT} tells unix-common's channel bases
 * what is kqueue's: this handle, the filters each interest keeps ({@code EVFILT_READ}, {@code EVFILT_WRITE}; the
 * peer's FIN comes with the read filter as {@code EV_EOF}), and the library check.
 *
 * <p>Neither {@code EV_EOF} nor the kevent's byte count is trusted as proof of anything by itself: libkqueue sets
 * {@code EV_EOF} whenever a stream socket has 0 bytes queued, and reports 1 as a listening socket's backlog; the
 * read loop goes on until a read says. A connect's outcome comes from the event's error number when it carries one
 * (libkqueue consumed {@code SO_ERROR} to produce it) and from {@code SO_ERROR} otherwise.
 */
final class KQueueChannelHandle extends AbstractUnixChannelHandle implements KQueueIoHandle {
    /** Kqueue as unix-common's channels see it. */
    static final UnixTransport TRANSPORT = new UnixTransport("KQueueIoHandler.newFactory()",
            KQueueChannelHandle.class, KQueueChannelHandle::opsFor, KQueueChannelHandle::new,
            KQueue::ensureAvailability);

    private static final LoopLogger LOGGER = LoopLogger.of(KQueueChannelHandle.class);

    private KQueueChannelHandle(Readiness readiness) {
        super(readiness);
        // BSD/macOS: EPIPE instead of a SIGPIPE that would end the JVM. Linux has no such option (0): unix-common
        // sends with MSG_NOSIGNAL there.
        FileDescriptor fd = readiness.fd();
        int res = KQueueSocketNative.setNoSigPipe(fd.intValue());
        if (res < 0) {
            LOGGER.log(Level.DEBUG, "Failed to set SO_NOSIGPIPE on " + fd,
                    Errors.newIoException("setsockopt(SO_NOSIGPIPE)", res));
        }
    }

    /** The {@link KQueueIoOps} of an interest combination; the peer's FIN needs no filter of its own. */
    private static IoOps opsFor(int interest) {
        return KQueueIoOps.valueOf(((interest & UnixTransport.INTEREST_READ) != 0 ? KQueueIoOps.READ_BIT : 0)
                | ((interest & UnixTransport.INTEREST_WRITE) != 0 ? KQueueIoOps.WRITE_BIT : 0));
    }

    @Override
    public void handle(IoRegistration registration, IoEvent event) {
        KQueueIoEvent kevent = (KQueueIoEvent) event;
        readiness.ready(kevent.readiness, kevent.errorNumber());
    }
}
