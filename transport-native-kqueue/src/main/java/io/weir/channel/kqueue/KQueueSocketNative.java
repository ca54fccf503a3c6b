package io.weir.channel.kqueue;

/**
 * The socket options whose names or semantics differ between the BSDs, macOS and Linux, registered by the
 * library's {@code JNI_OnLoad} (C: {@code weir_kqueue_socket.c}, which tabulates the differences). No static
 * initializer may call a native here. Every native returns {@code >= 0} or {@code -errno}.
 */
final class KQueueSocketNative {
    private KQueueSocketNative() {
    }

    /** {@code TCP_NOPUSH} (on Linux {@code TCP_CORK}); -ENOPROTOOPT where neither exists. */
    static native int setTcpNoPush(int fd, int on);

    static native int getTcpNoPush(int fd);

    /** {@code SO_SNDLOWAT}, in bytes; Linux refuses to set it (-ENOPROTOOPT). */
    static native int setSndLowAt(int fd, int bytes);

    static native int getSndLowAt(int fd);

    /** {@code SO_NOSIGPIPE} on: 1 if set, 0 where the platform has no such option (Linux uses MSG_NOSIGNAL). */
    static native int setNoSigPipe(int fd);
}
