package io.weir.handler.codec.socksx.v5;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.socksx.SocksHandshakeDecoder;
import io.weir.handler.codec.socksx.SocksProtocolException;
import io.weir.handler.codec.socksx.SocksProtocolException.Reason;
import io.weir.handler.codec.socksx.SocksVersion;
import java.util.List;

/**
 * Reads what a SOCKS5 proxy answers during the handshake (client side) and passes each answer on: a
 * {@link Socks5InitialResponse}; then, if it chose {@link Socks5AuthMethod#PASSWORD}, a
 * {@link Socks5PasswordAuthResponse}; then a {@link Socks5CommandResponse}. After the answer that ends the handshake
 * (the command reply, a failed password verdict, or a method other than no authentication and password) it removes
 * itself, handing every later byte (the destination's first bytes may follow the reply in the same read) on
 * untouched.
 *
 * <p>Refuses, with a {@link SocksProtocolException} as soon as the byte is in: a version other than 5 (1 for the
 * password verdict), a reserved byte that is not 0, an address type other than 1, 3 and 4
 * ({@link Reason#UNSUPPORTED_ADDRESS_TYPE}), an empty domain name, a domain name with a control character or that is
 * not UTF-8. Every answer is bounded by its length bytes (at most 262 bytes). After a refusal it discards every byte.
 *
 * <p>Event loop only; one instance per connection. It releases the answers' bytes; the bytes it hands on belong to
 * the next handler.
 */
public final class Socks5ClientDecoder extends SocksHandshakeDecoder {
    private enum State { EXPECT_METHOD, EXPECT_VERDICT, EXPECT_REPLY }

    private State state = State.EXPECT_METHOD;

    /** A decoder for one handshake. */
    public Socks5ClientDecoder() {
    }

    @Override
    protected void decodeHandshake(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        switch (state) {
            case EXPECT_METHOD -> readMethod(ctx, in, out);
            case EXPECT_VERDICT -> readVerdict(ctx, in, out);
            default -> readReply(ctx, in, out);
        }
    }

    private void readMethod(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        Socks5ServerDecoder.checkVersion(in, SocksVersion.SOCKS5.versionByte());
        if (in.readableBytes() < 2) {
            return;
        }
        Socks5AuthMethod method = new Socks5AuthMethod(in.getUnsignedByte(in.readerIndex() + 1));
        in.skipBytes(2);
        out.add(new Socks5InitialResponse(method));
        if (method.equals(Socks5AuthMethod.NO_AUTH)) {
            state = State.EXPECT_REPLY;
        } else if (method.equals(Socks5AuthMethod.PASSWORD)) {
            state = State.EXPECT_VERDICT;
        } else {
            ctx.pipeline().remove(this);
        }
    }

    private void readVerdict(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        Socks5ServerDecoder.checkVersion(in, Socks5PasswordAuthRequest.SUBNEGOTIATION_VERSION);
        if (in.readableBytes() < 2) {
            return;
        }
        Socks5PasswordAuthResponse verdict = new Socks5PasswordAuthResponse(in.getUnsignedByte(in.readerIndex() + 1));
        in.skipBytes(2);
        out.add(verdict);
        if (verdict.isSuccess()) {
            state = State.EXPECT_REPLY;
        } else {
            ctx.pipeline().remove(this);
        }
    }

    private void readReply(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int r = in.readerIndex();
        Socks5ServerDecoder.checkVersion(in, SocksVersion.SOCKS5.versionByte());
        if (in.readableBytes() < 3) {
            return;
        }
        Socks5ServerDecoder.checkReserved(in, r + 2);
        int end = Socks5Addresses.end(in, r + 3);
        if (end < 0) {
            return;
        }
        Socks5CommandResponse reply = new Socks5CommandResponse(new Socks5CommandStatus(in.getUnsignedByte(r + 1)),
                Socks5Addresses.type(in, r + 3), Socks5Addresses.host(in, r + 3), Socks5Addresses.port(in, end));
        in.readerIndex(end);
        out.add(reply);
        ctx.pipeline().remove(this);
    }
}
