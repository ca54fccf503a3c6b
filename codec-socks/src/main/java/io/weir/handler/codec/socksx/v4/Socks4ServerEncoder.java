package io.weir.handler.codec.socksx.v4;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.MessageToByteEncoder;
import io.weir.handler.codec.socksx.internal.InetLiterals;

/**
 * Writes {@link Socks4CommandResponse}s (server side) as the eight-byte reply. Other messages pass through.
 * Stateless: one instance may serve every channel.
 */
@ChannelHandler.Sharable
public final class Socks4ServerEncoder extends MessageToByteEncoder<Socks4CommandResponse> {
    /** An encoder. */
    public Socks4ServerEncoder() {
        super(Socks4CommandResponse.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Socks4CommandResponse msg, ByteBuf out) {
        out.writeByte(0);
        out.writeByte(msg.status().code());
        out.writeShort(msg.port());
        out.writeBytes(InetLiterals.parseIpv4(msg.address()));
    }
}
