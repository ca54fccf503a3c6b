package io.weir.handler.codec.dns;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.DatagramPacket;
import io.weir.handler.codec.EncoderException;
import io.weir.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * Encodes each {@link DnsDatagram} into one {@link DatagramPacket} for its recipient. A message that cannot be
 * encoded fails the write with an {@link EncoderException}. Event loop only; sharable.
 */
@io.weir.channel.ChannelHandler.Sharable
public final class DatagramDnsEncoder extends MessageToMessageEncoder<DnsDatagram> {
    /** An encoder. */
    public DatagramDnsEncoder() {
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, DnsDatagram msg, List<Object> out) {
        ByteBuf buf = ctx.alloc().buffer();
        try {
            DnsMessageEncoder.encode(msg.message(), buf);
        } catch (IllegalArgumentException e) {
            buf.release();
            throw new EncoderException(e.getMessage(), e);
        }
        out.add(new DatagramPacket(buf, msg.recipient()));
    }
}
