package io.weir.handler.codec.socksx.v4;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.socksx.SocksHandshakeDecoder;
import io.weir.handler.codec.socksx.SocksProtocolException;
import io.weir.handler.codec.socksx.SocksProtocolException.Reason;
import io.weir.handler.codec.socksx.internal.InetLiterals;
import java.util.List;

/**
 * Reads the one eight-byte reply of a SOCKS4 proxy (client side): passes it on as a {@link Socks4CommandResponse},
 * then removes itself, handing every later byte (the destination's first bytes may follow in the same read) on
 * untouched.
 *
 * <p>Refuses, with a {@link SocksProtocolException}, a reply version other than 0
 * ({@link Reason#UNSUPPORTED_VERSION}) and a code other than 90 to 93 ({@link Reason#UNSUPPORTED_STATUS}), as soon
 * as the byte is in, then discards every byte.
 *
 * <p>Event loop only; one instance per connection. It releases the reply's bytes; the bytes it hands on belong to
 * the next handler.
 */
public final class Socks4ClientDecoder extends SocksHandshakeDecoder {
    /** A decoder for one reply. */
    public Socks4ClientDecoder() {
    }

    @Override
    protected void decodeHandshake(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int r = in.readerIndex();
        int version = in.getUnsignedByte(r);
        if (version != 0) {
            throw refuse(Reason.UNSUPPORTED_VERSION, version, "reply version " + version + " (expected 0)");
        }
        if (in.readableBytes() < 2) {
            return;
        }
        int cd = in.getUnsignedByte(r + 1);
        Socks4CommandStatus status = Socks4CommandStatus.valueOf(cd);
        if (status == null) {
            throw refuse(Reason.UNSUPPORTED_STATUS, cd, "reply code " + cd + " (expected 90 to 93)");
        }
        if (in.readableBytes() < Socks4CommandResponse.LENGTH_BYTES) {
            return;
        }
        int port = in.getUnsignedShort(r + 2);
        byte[] ip = new byte[InetLiterals.IPV4_BYTES];
        in.getBytes(r + 4, ip);
        in.skipBytes(Socks4CommandResponse.LENGTH_BYTES);
        out.add(new Socks4CommandResponse(status, InetLiterals.formatIpv4(ip, 0), port));
        ctx.pipeline().remove(this);
    }

    private static SocksProtocolException refuse(Reason reason, int seen, String message) {
        return new SocksProtocolException(reason, seen, "SOCKS4 reply refused: " + message);
    }
}
