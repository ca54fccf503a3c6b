package io.weir.channel.epoll;

import io.weir.channel.unix.internal.DatagramSlots;

/**
 * The batched datagram JNI methods of the epoll transport, registered by the library's {@code JNI_OnLoad} (C source:
 * {@code transport-native-epoll/src/main/c/weir_epoll_dgram.c}); single datagrams, disconnect, multicast
 * membership and the datagram options are unix-common's {@link io.weir.channel.unix.internal.DatagramSocketNative},
 * whose slot layout (drawn there) these share: datagrams cross JNI through the thread's {@link DatagramSlots},
 * never through Java arrays. No static initializer may call a native here.
 *
 * <p>Every native returns a value {@code >= 0} on success and {@code -errno} on failure.
 */
final class NativeDatagram {
    /**
     * Most datagrams one {@code recvmmsg}/{@code sendmmsg} handles: one per slot of {@link DatagramSlots}. The C side
     * builds its arrays on the stack for as many; {@link #maxMessagesPerSyscall()} says how many it expects.
     */
    static final int MAX_MESSAGES_PER_SYSCALL = DatagramSlots.SLOTS;

    private NativeDatagram() {
    }

    /** Receives up to {@code count} datagrams (recvfrom for one): how many, or -errno (-EAGAIN: none). */
    static native int recvmmsg(int fd, long slotsAddress, int count);
    /** Sends up to {@code count} datagrams (sendto for one): how many the kernel took (>= 1), or -errno of the first. */
    static native int sendmmsg(int fd, boolean ipv6, long slotsAddress, int count);
    /** The C side's {@link #MAX_MESSAGES_PER_SYSCALL}, to check the two agree. */
    static native int maxMessagesPerSyscall();
}
