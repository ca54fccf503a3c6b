package io.weir.handler.codec.bytes;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.MessageToMessageDecoder;
import java.util.List;

/**
 * Decodes each inbound {@link ByteBuf} into a {@code byte[]} holding a copy of its readable bytes, and releases
 * the buffer. Put a frame decoder before it on a stream. Sharable and thread-safe.
 */
@ChannelHandler.Sharable
public final class ByteArrayDecoder extends MessageToMessageDecoder<ByteBuf> {

    /** The decoder. */
    public ByteArrayDecoder() {
        super(ByteBuf.class);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf msg, List<Object> out) {
        out.add(ByteBufUtil.getBytes(msg));
    }
}
