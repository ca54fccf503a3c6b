package io.weir.handler.codec.socksx;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.ByteToMessageDecoder;
import io.weir.handler.codec.socksx.v4.Socks4ClientDecoder;
import io.weir.handler.codec.socksx.v4.Socks4ServerDecoder;
import io.weir.handler.codec.socksx.v5.Socks5ClientDecoder;
import io.weir.handler.codec.socksx.v5.Socks5ServerDecoder;
import java.util.List;

/**
 * The base of this module's four handshake decoders (closed to others): once a decoder refuses bytes with a
 * {@link SocksProtocolException}, or the handshake ended in a refusal, every byte that still arrives is discarded,
 * never decoded. Event loop only.
 */
public abstract sealed class SocksHandshakeDecoder extends ByteToMessageDecoder
        permits Socks4ServerDecoder, Socks4ClientDecoder, Socks5ServerDecoder, Socks5ClientDecoder {
    private boolean discarding;

    /** A decoder that decodes until it refuses. */
    protected SocksHandshakeDecoder() {
    }

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (discarding) {
            in.skipBytes(in.readableBytes());
            return;
        }
        try {
            decodeHandshake(ctx, in, out);
        } catch (SocksProtocolException e) {
            discarding = true;
            in.skipBytes(in.readableBytes());
            throw e;
        }
    }

    /**
     * Decodes what it can of the handshake, as {@link ByteToMessageDecoder#decode} does.
     *
     * @throws SocksProtocolException to refuse the input: it and everything after it is discarded
     */
    protected abstract void decodeHandshake(ChannelHandlerContext ctx, ByteBuf in, List<Object> out);

    /** From now on every byte is discarded: the handshake ended in a refusal and the peer is to be closed. */
    protected final void discardFromNowOn() {
        discarding = true;
    }
}
