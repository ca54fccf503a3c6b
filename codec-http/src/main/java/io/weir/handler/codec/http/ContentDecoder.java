package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;

/**
 * Decompresses one message body, chunk by chunk, for {@link HttpContentDecoder}. One instance per body; only
 * called from the channel's event loop.
 */
public interface ContentDecoder {
    /** Receives decoded output; the limits of {@link HttpContentDecoder} are checked here. */
    interface Sink {
        /**
         * Takes ownership of {@code decoded} (also when it throws).
         *
         * @throws DecompressionLimitExceededException if the output passed a limit; the decoder must stop
         */
        void add(ByteBuf decoded);
    }

    /**
     * Decodes all of {@code in} (not released), handing the output to {@code sink} in buffers of at most a few
     * tens of KiB, so that a limit stops a bomb before a large buffer is allocated.
     *
     * @throws DecompressionException if the data is corrupt or follows the end of the stream
     */
    void decode(ByteBuf in, ByteBufAllocator alloc, Sink sink);

    /**
     * Called after the last chunk.
     *
     * @throws DecompressionException if the stream is incomplete
     */
    void finish();

    /** Frees native resources; idempotent. */
    void close();
}
