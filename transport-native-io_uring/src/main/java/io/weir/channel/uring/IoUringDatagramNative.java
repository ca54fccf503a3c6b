package io.weir.channel.uring;

/**
 * The JNI methods behind {@link IoUringDatagramChannel}'s {@code IORING_OP_RECVMSG} and {@code IORING_OP_SENDMSG}
 * (C source: {@code transport-native-io_uring/src/main/c/weir_iouring_datagram.c}), registered by the library's
 * {@code JNI_OnLoad}. No static initializer may call a native here.
 *
 * <p>Each operation lends the kernel one block of {@value #MSG_BYTES} bytes of native memory that the channel owns
 * and keeps until the operation's completion:
 * <pre>
 *   0                 56        72                               200        256
 *   +-----------------+---------+--------------------------------+----------+
 *   | struct msghdr   | iovec   | struct sockaddr_storage (peer) |  unused  |
 *   +-----------------+---------+--------------------------------+----------+
 *   (offsets of 64-bit Linux; the C side proves the block fits in MSG_BYTES)
 * </pre>
 * The natives fill a block before the SQE is submitted and read it after the CQE arrives; a datagram's buffer and
 * peer cross JNI through slot 0 of the thread's {@link io.weir.channel.unix.internal.DatagramSlots}, whose layout
 * and address decoding unix-common shares with the other transports.
 */
final class IoUringDatagramNative {
    /** Bytes of one operation's block; a power of two, so blocks never straddle a cache line needlessly. */
    static final int MSG_BYTES = 256;
    /** {@code MSG_TRUNC}: as a receive's flag, the kernel returns a datagram's real length even if it was cut. */
    static final int MSG_TRUNC = 0x20;

    private IoUringDatagramNative() {
    }

    /** Points the block at {@code msg} at {@code capacity} bytes of {@code buffer}, with room for the sender. */
    static native void prepareReceive(long msg, long buffer, int capacity);

    /**
     * After the receive of the block at {@code msg} completed with {@code res >= 0}: slot 0 at {@code slot} gets
     * the datagram's real length, whether it was truncated, and its sender.
     */
    static native void received(long msg, long slot, int res);

    /**
     * Fills the block at {@code msg} to send slot 0's buffer to slot 0's peer (none: the connected one) from a
     * socket of the given family.
     *
     * @return 0, or -errno ({@code -EAFNOSUPPORT}: an IPv6 peer for an IPv4 socket)
     */
    static native int prepareSend(long msg, long slot, boolean ipv6);
}
