package io.weir.channel.unix.internal;

import io.weir.channel.unix.FileDescriptor;

/**
 * A native channel's face towards its transport's {@link io.weir.channel.IoHandle}: the handle decodes each event
 * of its I/O handler into these flags and hands them to {@link #ready}, which does what
 * {@link AbstractUnixChannel} decides for them. Flags, one bit each:
 * <pre>
 *   bit 0 READABLE  read readiness ({@code EPOLLIN}, {@code EVFILT_READ})
 *   bit 1 WRITABLE  write readiness ({@code EPOLLOUT}, {@code EVFILT_WRITE})
 *   bit 2 PEER_FIN  the peer shut its output down ({@code EPOLLRDHUP}, {@code EPOLLHUP}, {@code EV_EOF} on read)
 *   bit 3 HANGUP    both directions are down ({@code EPOLLHUP})
 *   bit 4 ERROR     an error is pending ({@code EPOLLERR}, an error on the read filter)
 * </pre>
 * Event loop only, but for {@link #fd()}; not for applications.
 */
public final class Readiness {
    /** Read readiness. */
    public static final int READABLE = 1;
    /** Write readiness, or a non-blocking connect that finished. */
    public static final int WRITABLE = 1 << 1;
    /** The peer's FIN: what it sent before is still readable. */
    public static final int PEER_FIN = 1 << 2;
    /** Both directions are shut down. */
    public static final int HANGUP = 1 << 3;
    /** An error is pending on the socket. */
    public static final int ERROR = 1 << 4;

    private final AbstractUnixChannel channel;

    Readiness(AbstractUnixChannel channel) {
        this.channel = channel;
    }

    /** The channel's socket, the same for its life. */
    public FileDescriptor fd() {
        return channel.socket;
    }

    /**
     * One event for the channel.
     *
     * @param flags the {@code READABLE}, ... bits the event stands for
     * @param errorNumber the error number the event carried, or 0 (then {@code SO_ERROR} is asked where needed)
     */
    public void ready(int flags, int errorNumber) {
        channel.ready(flags, errorNumber);
    }

    /** The I/O handler is going away: the channel closes as a user would close it, so its handlers hear of it. */
    public void handlerClosing() {
        channel.closeForHandler();
    }

    /** The channel's description. */
    @Override
    public String toString() {
        return channel.toString();
    }
}
