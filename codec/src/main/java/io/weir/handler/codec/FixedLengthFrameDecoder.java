package io.weir.handler.codec;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import java.util.List;

/**
 * Splits a byte stream into frames of a fixed number of bytes, however the bytes arrive: reads of
 * {@code "AB", "CDEF", "G"} with a frame length of 3 give {@code "ABC", "DEF"}, and {@code "G"} waits. The frame
 * length bounds what the decoder holds. At the end of input an incomplete frame is dropped.
 *
 * <p>Frames are retained slices of the accumulated bytes, owned by the next handler. Not sharable; called on
 * the channel's event loop.
 */
public class FixedLengthFrameDecoder extends ByteToMessageDecoder {
    private final int frameLength;

    /**
     * Frames of {@code frameLength} bytes.
     *
     * @throws IllegalArgumentException if {@code frameLength} is not positive
     */
    public FixedLengthFrameDecoder(int frameLength) {
        if (frameLength <= 0) {
            throw new IllegalArgumentException("frameLength: " + frameLength + " (expected: > 0)");
        }
        this.frameLength = frameLength;
    }

    @Override
    protected final void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        Object decoded = decode(ctx, in);
        if (decoded != null) {
            out.add(decoded);
        }
    }

    /**
     * Reads one frame from {@code in} if it is complete.
     *
     * @return the frame, owned by the caller, or {@code null} if more bytes are needed
     */
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (in.readableBytes() < frameLength) {
            return null;
        }
        return in.readRetainedSlice(frameLength);
    }
}
