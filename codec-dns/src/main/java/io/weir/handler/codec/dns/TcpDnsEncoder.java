package io.weir.handler.codec.dns;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.EncoderException;
import io.weir.handler.codec.MessageToByteEncoder;

/**
 * Encodes each {@link DnsMessage} preceded by its length in two bytes, for TCP (RFC 1035 §4.2.2). A message that
 * cannot be encoded, or is longer than 65535 bytes, fails the write with an {@link EncoderException}. Event loop
 * only; sharable.
 */
@io.weir.channel.ChannelHandler.Sharable
public final class TcpDnsEncoder extends MessageToByteEncoder<DnsMessage> {
    private static final int MAX_MESSAGE_BYTES = 0xFFFF;

    /** An encoder. */
    public TcpDnsEncoder() {
        super(DnsMessage.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, DnsMessage msg, ByteBuf out) {
        int lengthIndex = out.writerIndex();
        out.writeShort(0);
        int length;
        try {
            length = DnsMessageEncoder.encode(msg, out);
        } catch (IllegalArgumentException e) {
            out.writerIndex(lengthIndex);
            throw new EncoderException(e.getMessage(), e);
        }
        if (length > MAX_MESSAGE_BYTES) {
            out.writerIndex(lengthIndex);
            throw new EncoderException("DNS message of " + length + " bytes does not fit TCP's 2-byte length");
        }
        out.setShort(lengthIndex, length);
    }
}
