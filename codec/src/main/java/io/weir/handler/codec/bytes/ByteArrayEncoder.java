package io.weir.handler.codec.bytes;

import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * Encodes each outbound {@code byte[]} into a buffer that wraps it without copying: the array must not be
 * changed until the write completes. Other messages pass through. Sharable and thread-safe.
 */
@ChannelHandler.Sharable
public final class ByteArrayEncoder extends MessageToMessageEncoder<byte[]> {

    /** The encoder. */
    public ByteArrayEncoder() {
        super(byte[].class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, byte[] msg, List<Object> out) {
        out.add(Unpooled.wrappedBuffer(msg));
    }
}
