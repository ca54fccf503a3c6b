package io.weir.handler.codec.http;

/**
 * Decompresses bodies sent with {@code Content-Encoding} {@code gzip}, {@code x-gzip}, {@code deflate} or
 * {@code x-deflate} (zlib, or raw deflate as some servers send) through the JDK's {@link java.util.zip.Inflater},
 * within the limits described in {@link HttpContentDecoder}. Other encodings pass through untouched.
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
        if (contentEncoding.equalsIgnoreCase("gzip") || contentEncoding.equalsIgnoreCase("x-gzip")) {
            return new InflateContentDecoder(true);
        }
        if (contentEncoding.equalsIgnoreCase("deflate") || contentEncoding.equalsIgnoreCase("x-deflate")) {
            return new InflateContentDecoder(false);
        }
        return null;
    }
}
