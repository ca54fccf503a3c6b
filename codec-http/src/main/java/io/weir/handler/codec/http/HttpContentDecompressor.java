package io.weir.handler.codec.http;

import io.weir.handler.codec.compression.CompressionLibrary;
import io.weir.handler.codec.compression.ContentDecoder;
import io.weir.handler.codec.compression.DecompressionException;

/**
 * Decompresses bodies sent with {@code Content-Encoding} {@code gzip}, {@code x-gzip}, {@code deflate} or
 * {@code x-deflate} (zlib, or raw deflate as some servers send) through the JDK's {@link java.util.zip.Inflater},
 * and {@code br} and {@code zstd} when their optional libraries are present ({@link CompressionLibrary}), within
 * the limits described in {@link HttpContentDecoder}. Other encodings, and {@code br} or {@code zstd} without
 * their library, pass through untouched. A zstd frame that needs a window over 8 MiB is refused with a
 * {@link DecompressionException} (RFC 9659 §3); brotli windows are at most 16 MiB by format.
 *
 * <p>Only called from the channel's event loop; one instance per channel.
 */
public class HttpContentDecompressor extends HttpContentDecoder {

    /** A decompressor with the default limits (64 MiB per body, 100:1 past the first MiB). */
    public HttpContentDecompressor() {
    }

    /**
     * A decompressor allowing at most {@code maxDecompressedBytes} per body and {@code maxRatio} decompressed
     * bytes per compressed byte past the first MiB.
     *
     * @throws IllegalArgumentException if a limit is not positive
     */
    public HttpContentDecompressor(long maxDecompressedBytes, int maxRatio) {
        super(maxDecompressedBytes, maxRatio);
    }

    @Override
    protected ContentDecoder newContentDecoder(String contentEncoding) {
        return ContentDecoder.forCoding(contentEncoding);
    }
}
