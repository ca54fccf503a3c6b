package io.weir.handler.codec.compression;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;

/**
 * The buffer handling every built-in {@link ContentEncoder} shares: each call allocates its output, has the
 * subclass fill it, and hands it to the caller; if filling throws, the output is released here before the
 * exception goes on, so a failed call leaves nothing behind. Subclasses only size and fill. Only called from
 * the channel's event loop.
 */
abstract class AbstractContentEncoder implements ContentEncoder {
    @Override
    public final ByteBuf encode(ByteBuf in, ByteBufAllocator alloc) {
        ByteBuf out = newEncodeOutput(alloc, in.readableBytes());
        try {
            encodeInto(in, out, alloc);
            return out;
        } catch (Throwable t) {
            out.release();
            throw t;
        }
    }

    @Override
    public final ByteBuf finish(ByteBufAllocator alloc) {
        ByteBuf out = newFinishOutput(alloc);
        try {
            finishInto(out);
            return out;
        } catch (Throwable t) {
            out.release();
            throw t;
        }
    }

    /** The output of an {@link #encode} of {@code length} readable bytes; it may grow while being filled. */
    abstract ByteBuf newEncodeOutput(ByteBufAllocator alloc, int length);

    /**
     * Compresses all of {@code in} (read fully, not released) into {@code out} and flushes, so the receiver can
     * decode everything given so far; {@code alloc} is for any scratch buffers, which this method releases.
     */
    abstract void encodeInto(ByteBuf in, ByteBuf out, ByteBufAllocator alloc);

    /** The output of {@link #finish}; it may grow while being filled. */
    abstract ByteBuf newFinishOutput(ByteBufAllocator alloc);

    /** Ends the stream into {@code out}, trailer included. */
    abstract void finishInto(ByteBuf out);
}
