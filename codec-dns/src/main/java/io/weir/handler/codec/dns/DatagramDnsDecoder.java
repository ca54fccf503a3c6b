package io.weir.handler.codec.dns;

import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.DatagramPacket;
import io.weir.handler.codec.MessageToMessageDecoder;
import java.util.List;
import java.util.Objects;

/**
 * Decodes each received {@link DatagramPacket} into a {@link DnsDatagram}, one message per datagram (RFC 1035
 * §4.2.1). A malformed datagram is refused with a {@link DnsDecoderException} fired as an exception event; the
 * channel stays open (the next datagram is a new message). Releases each packet. Event loop only; sharable.
 */
@io.weir.channel.ChannelHandler.Sharable
public final class DatagramDnsDecoder extends MessageToMessageDecoder<DatagramPacket> {
    private final DnsMessageDecoder decoder;

    /** A decoder with the default limits. */
    public DatagramDnsDecoder() {
        this(new DnsMessageDecoder());
    }

    /** A decoder with {@code decoder}'s limits. */
    public DatagramDnsDecoder(DnsMessageDecoder decoder) {
        super(DatagramPacket.class);
        this.decoder = Objects.requireNonNull(decoder, "decoder");
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, DatagramPacket packet, List<Object> out) {
        out.add(new DnsDatagram(decoder.decode(packet.content()), packet.sender(), packet.recipient()));
    }
}
