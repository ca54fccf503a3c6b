package io.weir.channel.epoll;

/**
 * The JNI methods of the epoll transport, registered by the library's {@code JNI_OnLoad} (C source:
 * {@code transport-native-epoll/src/main/c/weir_epoll.c}). No static initializer may call a native here:
 * {@code FindClass} initializes this class while the library is being loaded.
 *
 * <p>Every native returns a value {@code >= 0} on success and {@code -errno} on failure (see
 * {@link io.weir.channel.unix.Errors}).
 */
final class Native {
    // Proved equal to the kernel's values by _Static_assert in weir_epoll.c.
    static final int EPOLL_CTL_ADD = 1;
    static final int EPOLL_CTL_DEL = 2;
    static final int EPOLL_CTL_MOD = 3;

    // Linux-only TCP option ids for setTcpOption/getTcpOption; the C enum lists the same values.
    static final int TCP_OPTION_QUICKACK = 0;
    static final int TCP_OPTION_CORK = 1;
    static final int TCP_OPTION_NOTSENT_LOWAT = 2;
    static final int TCP_OPTION_USER_TIMEOUT = 3;
    static final int TCP_OPTION_KEEPIDLE = 4;
    static final int TCP_OPTION_KEEPINTVL = 5;
    static final int TCP_OPTION_KEEPCNT = 6;

    private Native() {
    }

    /** {@code epoll_create1(EPOLL_CLOEXEC)}. */
    static native int epollCreate();
    /** {@code epoll_ctl}; the event's data is {@code fd} itself. */
    static native int epollCtl(int epfd, int op, int fd, int events);
    /** {@code epoll_wait} into the {@code struct epoll_event} array at {@code eventsAddress}; -EINTR is not retried. */
    static native int epollWait(int epfd, long eventsAddress, int maxEvents, int timeoutMillis);
    /** {@code eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)}. */
    static native int eventFd();
    /** Adds {@code value} to the counter; a full counter counts as success (a wake-up is pending anyway). */
    static native int eventFdWrite(int fd, long value);
    /** Resets the counter; -EAGAIN if it was 0. */
    static native int eventFdRead(int fd);
    /** {@code timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK)}. */
    static native int timerFdCreate();
    /** One expiry {@code delayNanos} from now; 0 disarms. */
    static native int timerFdSetTime(int fd, long delayNanos);
    /** Consumes the expirations; -EAGAIN if there were none. */
    static native int timerFdRead(int fd);
    static native int sizeofEpollEvent();
    static native int offsetofEpollData();
    /** {@code setsockopt(IPPROTO_TCP)} of one of the TCP_OPTION_* ids; -EINVAL for an unknown id. */
    static native int setTcpOption(int fd, int option, int value);
    /** The value ({@code >= 0}) of one of the TCP_OPTION_* ids, or -errno. */
    static native int getTcpOption(int fd, int option);
}
