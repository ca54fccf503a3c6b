package io.weir.handler.codec.compression;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;

/**
 * Decompresses one message body, chunk by chunk, for a protocol's decompressing handler (HTTP's
 * {@code HttpContentDecoder}). One instance per body; only
 * called from the channel's event loop.
 */
public interface ContentDecoder {
    /** The largest buffer a built-in decoder hands to its {@link Sink}: a limit stops a bomb one piece past it. */
    int MAX_PIECE_BYTES = 16 * 1024;

    /**
     * A new decoder for one body in {@code contentCoding} ({@code gzip}, {@code x-gzip}, {@code deflate},
     * {@code x-deflate}, {@code br}, {@code zstd}; case-insensitive, RFC 9110 §8.4.1), or null for a coding there is no
     * decoder for, {@code br} and {@code zstd} included when their {@linkplain CompressionLibrary library} is
     * missing. The caller {@linkplain #close() closes} it.
     */
    static ContentDecoder forCoding(String contentCoding) {
        return switch (contentCoding.toLowerCase(java.util.Locale.ROOT)) {
            case "gzip", "x-gzip" -> new InflateContentDecoder(true);
            case "deflate", "x-deflate" -> new InflateContentDecoder(false);
            case "br" -> CompressionLibrary.BROTLI.isAvailable() ? new BrotliContentDecoder() : null;
            case "zstd" -> CompressionLibrary.ZSTD.isAvailable() ? new ZstdContentDecoder() : null;
            default -> null;
        };
    }

    /** Receives decoded output; the handler's limits (decompressed size, ratio) are checked here. */
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
