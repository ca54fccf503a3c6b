package io.weir.handler.codec.socksx.v5;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.MessageToByteEncoder;
import io.weir.handler.codec.socksx.SocksVersion;
import io.weir.handler.codec.socksx.internal.SocksText;

/**
 * Writes the client's {@link Socks5Request}s: the initial request, the username and password, the command. Other
 * messages pass through. Stateless: one instance may serve every channel.
 */
@ChannelHandler.Sharable
public final class Socks5ClientEncoder extends MessageToByteEncoder<Socks5Request> {
    /** An encoder. */
    public Socks5ClientEncoder() {
        super(Socks5Request.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, Socks5Request msg, ByteBuf out) {
        if (msg instanceof Socks5InitialRequest m) {
            out.writeByte(SocksVersion.SOCKS5.versionByte());
            out.writeByte(m.methods().size());
            for (int i = 0; i < m.methods().size(); i++) {
                out.writeByte(m.methods().get(i).code());
            }
        } else if (msg instanceof Socks5PasswordAuthRequest m) {
            byte[] user = SocksText.encode(m.username());
            byte[] password = SocksText.encode(m.password());
            out.writeByte(Socks5PasswordAuthRequest.SUBNEGOTIATION_VERSION);
            out.writeByte(user.length);
            out.writeBytes(user);
            out.writeByte(password.length);
            out.writeBytes(password);
        } else {
            Socks5CommandRequest m = (Socks5CommandRequest) msg;
            Socks5Addresses.writeCommandOrReply(out, m.type().code(), m.addressType(), m.host(), m.port());
        }
    }
}
