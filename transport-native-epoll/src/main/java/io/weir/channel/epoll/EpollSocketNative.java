package io.weir.channel.epoll;

/**
 * The TCP-only JNI methods of the epoll transport, registered by the library's {@code JNI_OnLoad} (C source:
 * {@code transport-native-epoll/src/main/c/weir_epoll_socket.c}). No static initializer may call a native here:
 * {@code FindClass} initializes this class while the library is being loaded.
 *
 * <p>Every {@code int}/{@code long} native returns a value {@code >= 0} on success and {@code -errno} on failure
 * (see {@link io.weir.channel.unix.Errors}).
 */
final class EpollSocketNative {
    // Option ids for setOption/getOption; the C enum lists the same values.
    static final int OPTION_TCP_FASTOPEN = 0;
    static final int OPTION_TCP_FASTOPEN_CONNECT = 1;
    static final int OPTION_TCP_DEFER_ACCEPT = 2;
    static final int OPTION_IP_TRANSPARENT = 3;
    static final int OPTION_IP_FREEBIND = 4;
    static final int OPTION_SO_BUSY_POLL = 5;

    /** Length of the array {@link #tcpInfo} fills; the C enum TCP_INFO_* names each index. */
    static final int TCP_INFO_COUNT = 30;

    private EpollSocketNative() {
    }

    /** {@code setsockopt} of one of the OPTION_* ids (the level follows the socket's family). */
    static native int setOption(int fd, int option, int value);
    /** The value ({@code >= 0}) of one of the OPTION_* ids, or -errno. */
    static native int getOption(int fd, int option);
    /** Fills {@code out} ({@link #TCP_INFO_COUNT} values) from {@code getsockopt(TCP_INFO)}. */
    static native int tcpInfo(int fd, long[] out);
    /** {@code pipe2(O_NONBLOCK | O_CLOEXEC)}: {@code (readFd << 32) | writeFd}, or -errno. */
    static native long newPipe();
    /**
     * {@code splice(2)} of at most {@code len} bytes, never blocking on the pipe; an offset {@code < 0} uses the
     * descriptor's own position. Bytes moved, 0 at the end of {@code fdIn}'s input, or -errno (-EAGAIN: not now).
     */
    static native int splice(int fdIn, long offIn, int fdOut, long offOut, int len);
}
