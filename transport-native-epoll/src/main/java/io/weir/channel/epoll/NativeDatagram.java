package io.weir.channel.epoll;

/**
 * The batched datagram JNI methods of the epoll transport, registered by the library's {@code JNI_OnLoad} (C source:
 * {@code transport-native-epoll/src/main/c/weir_epoll_dgram.c}); disconnect, multicast membership and the datagram
 * options are unix-common's {@link io.weir.channel.unix.internal.DatagramSocketNative}, whose slot layout this one
 * shares. No static initializer may call a native here.
 *
 * <p>Every native returns a value {@code >= 0} on success and {@code -errno} on failure. Datagrams cross JNI
 * through an array of slots in native memory (see {@link DatagramSlots}), never through Java arrays:
 * <pre>
 *   slot i at slotsAddress + i * SLOT_BYTES (native byte order):
 *   0         8        12       16                32      36     40         44          64
 *   +---------+--------+--------+-----------------+-------+------+----------+-----------+
 *   | address | length | flags  | addr (4 or 16)  | scope | port | addrlen  |  unused   |
 *   +---------+--------+--------+-----------------+-------+------+----------+-----------+
 *   address: the buffer's memory; length: its capacity or the bytes to send, on return from a receive the
 *   datagram's real length; flags: 1 if the datagram was truncated; addrlen 0: no address (connected send).
 * </pre>
 * The C side proves the offsets with {@code _Static_assert}.
 */
final class NativeDatagram {
    static final int SLOT_BYTES = 64;
    static final int LENGTH_OFFSET = 8;
    static final int FLAGS_OFFSET = 12;
    static final int ADDRESS_OFFSET = 16;
    static final int SCOPE_OFFSET = 32;
    static final int PORT_OFFSET = 36;
    static final int ADDRESS_LENGTH_OFFSET = 40;

    /** Most datagrams one {@code recvmmsg}/{@code sendmmsg} handles; the C side builds its arrays on the stack. */
    static final int MAX_MESSAGES_PER_SYSCALL = 64;

    private NativeDatagram() {
    }

    /** Receives up to {@code count} datagrams (recvfrom for one): how many, or -errno (-EAGAIN: none). */
    static native int recvmmsg(int fd, long slotsAddress, int count);
    /** Sends up to {@code count} datagrams (sendto for one): how many the kernel took (>= 1), or -errno of the first. */
    static native int sendmmsg(int fd, boolean ipv6, long slotsAddress, int count);
    /** The C side's {@link #MAX_MESSAGES_PER_SYSCALL}, to check the two agree. */
    static native int maxMessagesPerSyscall();
}
