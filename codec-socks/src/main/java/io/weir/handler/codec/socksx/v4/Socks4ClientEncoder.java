package io.weir.handler.codec.socksx.v4;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.MessageToByteEncoder;
import io.weir.handler.codec.socksx.SocksVersion;
import io.weir.handler.codec.socksx.internal.SocksText;

/**
 * Writes {@link Socks4CommandRequest}s (client side): plain SOCKS4 when the destination is an IPv4 address, the 4a
 * form ({@code DSTIP 0.0.0.1}, the host name after the user id) otherwise. Other messages pass through. Stateless:
 * one instance may serve every channel.
 */
@ChannelHandler.Sharable
public final class Socks4ClientEncoder extends MessageToByteEncoder<Socks4CommandRequest> {
    /** The address a 4a request puts in DSTIP: 0.0.0.x with x not zero means "a host name follows". */
    private static final byte[] SOCKS4A_MARKER = {0, 0, 0, 1};

    /** An encoder. */
    public Socks4ClientEncoder() {
        super(Socks4CommandRequest.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Socks4CommandRequest msg, ByteBuf out) {
        byte[] ip = msg.ipv4Address();
        out.writeByte(SocksVersion.SOCKS4A.versionByte());
        out.writeByte(msg.type().code());
        out.writeShort(msg.port());
        out.writeBytes(ip != null ? ip : SOCKS4A_MARKER);
        out.writeBytes(SocksText.encode(msg.userId()));
        out.writeByte(0);
        if (ip == null) {
            out.writeBytes(SocksText.encode(msg.host()));
            out.writeByte(0);
        }
    }
}
