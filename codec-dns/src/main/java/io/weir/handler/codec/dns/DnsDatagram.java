package io.weir.handler.codec.dns;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * A DNS message with the addresses of the datagram that carries it: read, {@link #sender()} is where it came from;
 * written, {@link #recipient()} is where it goes. Not reference counted.
 *
 * @param message   the message
 * @param sender    where it came from, or {@code null} for one about to be written
 * @param recipient where it goes (or arrived)
 */
public record DnsDatagram(DnsMessage message, InetSocketAddress sender, InetSocketAddress recipient) {
    /**
     * Checks the arguments.
     *
     * @throws NullPointerException if {@code message} or {@code recipient} is null
     */
    public DnsDatagram {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(recipient, "recipient");
    }
}
