package io.weir.channel.unix;

import io.weir.channel.ChannelException;
import java.net.InetSocketAddress;

/**
 * A datagram larger than the buffer it was received into arrived and was dropped: a native datagram channel fires
 * this as an exception event instead of delivering the kernel's truncated copy, and the channel stays open. Raise
 * the receive buffer size ({@link io.weir.channel.ChannelOption#RCVBUF_ALLOCATOR}) if such datagrams are legitimate.
 *
 * <p>A peer can send oversized datagrams at will, so the exception carries no stack trace; its message and
 * accessors say who sent how much. Not final: a transport may keep a type of its own that extends it.
 */
public class TruncatedDatagramException extends ChannelException {
    /** {@link #datagramBytes()} when the kernel said only that the datagram did not fit (the BSDs, macOS). */
    public static final int UNKNOWN_LENGTH = -1;

    private static final long serialVersionUID = 1L;

    private final transient InetSocketAddress sender;
    private final int datagramBytes;
    private final int bufferBytes;

    /**
     * @param sender where the datagram came from, or {@code null} if unknown
     * @param datagramBytes the datagram's real size, or {@link #UNKNOWN_LENGTH}
     * @param bufferBytes the room the receive buffer had
     */
    public TruncatedDatagramException(InetSocketAddress sender, int datagramBytes, int bufferBytes) {
        super("dropped a datagram of " + (datagramBytes == UNKNOWN_LENGTH ? "more than " + bufferBytes
                : String.valueOf(datagramBytes)) + " bytes from " + sender + ": larger than the receive buffer of "
                + bufferBytes + " bytes (raise RCVBUF_ALLOCATOR's size)");
        this.sender = sender;
        this.datagramBytes = datagramBytes;
        this.bufferBytes = bufferBytes;
    }

    /** Where the dropped datagram came from, or {@code null} if unknown. */
    public final InetSocketAddress sender() {
        return sender;
    }

    /** The dropped datagram's size in bytes, or {@link #UNKNOWN_LENGTH} if the kernel did not report it. */
    public final int datagramBytes() {
        return datagramBytes;
    }

    /** The size of the buffer it did not fit in, in bytes. */
    public final int bufferBytes() {
        return bufferBytes;
    }

    @Override
    public final synchronized Throwable fillInStackTrace() {
        return this;
    }
}
