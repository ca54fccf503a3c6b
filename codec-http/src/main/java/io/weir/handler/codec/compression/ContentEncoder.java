package io.weir.handler.codec.compression;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;

/**
 * Compresses one message body, chunk by chunk, for a protocol's compressing handler (HTTP's
 * {@code HttpContentEncoder}); {@link ContentEncoderCache} hands them out. One instance per body; only
 * called from the channel's event loop.
 */
public interface ContentEncoder {
    /**
     * Compresses {@code in} (read fully, not released) and returns the compressed bytes it produced, flushed so
     * that the receiver can decode everything given so far; may be empty. The caller owns the result.
     */
    ByteBuf encode(ByteBuf in, ByteBufAllocator alloc);

    /** Ends the stream and returns its last bytes (trailer included); the caller owns the result. */
    ByteBuf finish(ByteBufAllocator alloc);

    /** Frees native resources; idempotent, called after {@link #finish} and on failure or removal. */
    void close();
}
