package io.weir.channel.epoll;

import java.net.InetSocketAddress;

/**
 * A datagram larger than the buffer it was received into arrived and was dropped: {@link EpollDatagramChannel}
 * fires this as an exception event instead of delivering the kernel's truncated copy, and the channel stays
 * open. Raise the receive buffer size ({@link io.weir.channel.ChannelOption#RCVBUF_ALLOCATOR}) if such datagrams
 * are legitimate. epoll always knows the datagram's real size ({@link #datagramBytes()}).
 *
 * <p>Catch {@link io.weir.channel.unix.TruncatedDatagramException}, its parent, to handle epoll and kqueue alike.
 * Carries no stack trace: a peer can send oversized datagrams at will.
 */
public final class TruncatedDatagramException extends io.weir.channel.unix.TruncatedDatagramException {
    private static final long serialVersionUID = 1L;

    /**
     * @param sender where the datagram came from, or {@code null} if unknown
     * @param datagramBytes the datagram's real size
     * @param bufferBytes the room the receive buffer had
     */
    public TruncatedDatagramException(InetSocketAddress sender, int datagramBytes, int bufferBytes) {
        super(sender, datagramBytes, bufferBytes);
    }
}
