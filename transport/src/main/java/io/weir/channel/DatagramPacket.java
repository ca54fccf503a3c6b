package io.weir.channel;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.DefaultByteBufHolder;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * A UDP datagram: its content and its addresses. Read from a datagram channel, {@link #sender()} is where it
 * came from and {@link #recipient()} the channel's local address; written, {@link #recipient()} is where it
 * goes. Like every {@link io.weir.buffer.ByteBufHolder}, its reference count is its content's: whoever owns
 * the packet releases it once. Immutable apart from the content's indexes.
 */
public final class DatagramPacket extends DefaultByteBufHolder {
    private final InetSocketAddress recipient;
    private final InetSocketAddress sender;

    /**
     * A packet for {@code recipient}, sent from the channel's own address.
     *
     * @param content the payload; its ownership passes to the packet
     * @throws NullPointerException if an argument is null
     */
    public DatagramPacket(ByteBuf content, InetSocketAddress recipient) {
        this(content, recipient, null);
    }

    /**
     * A packet from {@code sender} (may be {@code null}) to {@code recipient}.
     *
     * @param content the payload; its ownership passes to the packet
     * @throws NullPointerException if {@code content} or {@code recipient} is null
     */
    public DatagramPacket(ByteBuf content, InetSocketAddress recipient, InetSocketAddress sender) {
        super(content);
        this.recipient = Objects.requireNonNull(recipient, "recipient");
        this.sender = sender;
    }

    /** Where the packet goes (written) or arrived (read). */
    public InetSocketAddress recipient() {
        return recipient;
    }

    /** Where the packet came from, or {@code null} if unknown (a packet about to be written). */
    public InetSocketAddress sender() {
        return sender;
    }

    @Override
    public DatagramPacket copy() {
        return replace(content().copy());
    }

    @Override
    public DatagramPacket duplicate() {
        return replace(content().duplicate());
    }

    @Override
    public DatagramPacket retainedDuplicate() {
        return replace(content().retainedDuplicate());
    }

    /** A packet with the same addresses carrying {@code content}, which passes to the new packet. */
    @Override
    public DatagramPacket replace(ByteBuf content) {
        return new DatagramPacket(content, recipient, sender);
    }

    @Override
    public DatagramPacket retain() {
        super.retain();
        return this;
    }

    @Override
    public DatagramPacket retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public DatagramPacket touch() {
        super.touch();
        return this;
    }

    @Override
    public DatagramPacket touch(Object hint) {
        super.touch(hint);
        return this;
    }

    /** Equal to a packet with equal content and addresses. */
    @Override
    public boolean equals(Object o) {
        return super.equals(o) && o instanceof DatagramPacket other && recipient.equals(other.recipient)
                && Objects.equals(sender, other.sender);
    }

    @Override
    public int hashCode() {
        return (super.hashCode() * 31 + recipient.hashCode()) * 31 + Objects.hashCode(sender);
    }

    @Override
    public String toString() {
        return "DatagramPacket(" + sender + " => " + recipient + ", " + (refCnt() > 0 ? content() : "released") + ')';
    }
}
