package io.weir.handler.codec.socksx.v5;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.MessageToByteEncoder;
import io.weir.handler.codec.socksx.SocksVersion;

/**
 * Writes the proxy's {@link Socks5Response}s: the chosen method, the password verdict, the command reply. Other
 * messages pass through. Stateless: one instance may serve every channel. Put it before the
 * {@link Socks5ServerDecoder} (nearer the head), which watches the answers go by.
 */
@ChannelHandler.Sharable
public final class Socks5ServerEncoder extends MessageToByteEncoder<Socks5Response> {
    /** An encoder. */
    public Socks5ServerEncoder() {
        super(Socks5Response.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Socks5Response msg, ByteBuf out) {
        if (msg instanceof Socks5InitialResponse m) {
            out.writeByte(SocksVersion.SOCKS5.versionByte());
            out.writeByte(m.method().code());
        } else if (msg instanceof Socks5PasswordAuthResponse m) {
            out.writeByte(Socks5PasswordAuthRequest.SUBNEGOTIATION_VERSION);
            out.writeByte(m.status());
        } else {
            Socks5CommandResponse m = (Socks5CommandResponse) msg;
            Socks5Addresses.writeCommandOrReply(out, m.status().code(), m.addressType(), m.host(), m.port());
        }
    }
}
