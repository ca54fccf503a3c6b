package io.weir.channel.uring;

import io.weir.channel.ChannelOption;

/**
 * The {@link ChannelOption}s only the io_uring channels understand, besides the standard ones of
 * {@link ChannelOption}. Other transports' configs refuse them ({@code setOption} returns {@code false}).
 */
public final class IoUringChannelOption {
    /**
     * On an {@link IoUringSocketChannel}: the size in bytes from which a write of one buffer goes out with
     * {@code IORING_OP_SEND_ZC} (Linux 6.0) instead of {@code IORING_OP_SEND}, so the kernel sends from the buffer
     * itself rather than copying it; the buffer then stays the kernel's until the send's notification
     * ({@code IORING_CQE_F_NOTIF}), which may come well after the bytes left the outbound buffer. Zero-copy pays
     * only for large writes (the pinning and the notification cost more than copying a few kilobytes), not over
     * loopback. A buffer sent this way is held until the kernel lets go of the bytes, which for a peer
     * that does not read may be long after the channel closed (until the peer reads, resets or the connection
     * times out), and the event loop's shutdown waits for it as for every operation in flight.
     * {@value #SEND_ZC_DISABLED} (the default) turns it off;
     * where the kernel lacks {@code SEND_ZC} (see {@link IoUring#isOperationSupported}) or the socket refuses it,
     * writes use {@code IORING_OP_SEND} whatever the value.
     */
    public static final ChannelOption<Integer> SEND_ZC_THRESHOLD = ChannelOption.valueOf("IO_URING_SEND_ZC_THRESHOLD");

    /** {@link #SEND_ZC_THRESHOLD}'s value for "never". */
    public static final int SEND_ZC_DISABLED = -1;

    private IoUringChannelOption() {
    }
}
