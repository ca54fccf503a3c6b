package io.weir.handler.codec.http2;

/**
 * A PING frame (RFC 9113 §6.7). The codec answers pings itself; inbound pings and acknowledgements are fired for
 * information. Write one without ACK to measure the round trip (its ACK comes back as an inbound frame).
 *
 * @param content the 8 opaque octets, big-endian
 * @param ack whether the ACK flag is set
 */
public record Http2PingFrame(long content, boolean ack) implements Http2Frame {

    @Override
    public String name() {
        return "PING";
    }
}
