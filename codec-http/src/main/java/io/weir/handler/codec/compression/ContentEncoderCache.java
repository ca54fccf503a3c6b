package io.weir.handler.codec.compression;

import java.util.Objects;

/**
 * One connection's content encoders: the codings it may offer, with their settings, and the zlib and zstd states
 * kept from body to body, so that a connection compressing many responses allocates its native state once. A
 * brotli encoder cannot be reset and is new for each body. Not thread-safe: one instance per channel, used only
 * from its event loop; {@link #end()} frees the native state when the channel is done.
 *
 * <p>Protocol-neutral: HTTP/1.1's {@code HttpContentCompressor} uses one per connection, and so can HTTP/2 and
 * WebSocket handlers.
 */
public final class ContentEncoderCache {
    /** The codings this cache knows, in the order a server prefers them when a client weighs them equally. */
    public static final String[] CODINGS_BY_PREFERENCE = {"br", "zstd", "gzip", "deflate"};

    private final CompressionOptions.Brotli brotli;
    private final CompressionOptions.Zstd zstd;
    private final CompressionOptions.Gzip gzip;
    private final CompressionOptions.Deflate deflate;

    private DeflateContentEncoder gzipEncoder;
    private DeflateContentEncoder deflateEncoder;
    private ZstdContentEncoder zstdEncoder;

    /**
     * A cache that offers the codings of {@code options} whose library is available; options whose library is
     * missing are dropped silently (see {@link CompressionLibrary}). No options: br, zstd, gzip and deflate at their
     * defaults.
     *
     * @throws IllegalArgumentException if a coding is given twice
     * @throws NullPointerException if an option is null
     */
    public ContentEncoderCache(CompressionOptions... options) {
        if (options.length == 0) {
            options = new CompressionOptions[] {CompressionOptions.brotli(), CompressionOptions.zstd(),
                    CompressionOptions.gzip(), CompressionOptions.deflate()};
        }
        CompressionOptions.Brotli b = null;
        CompressionOptions.Zstd z = null;
        CompressionOptions.Gzip g = null;
        CompressionOptions.Deflate d = null;
        boolean[] seen = new boolean[CODINGS_BY_PREFERENCE.length];
        for (CompressionOptions o : options) {
            Objects.requireNonNull(o, "options");
            int slot = slotOf(o.contentCoding());
            if (seen[slot]) {
                throw new IllegalArgumentException("coding given twice: " + o.contentCoding());
            }
            seen[slot] = true;
            if (!o.isAvailable()) {
                continue;
            }
            if (o instanceof CompressionOptions.Brotli x) {
                b = x;
            } else if (o instanceof CompressionOptions.Zstd x) {
                z = x;
            } else if (o instanceof CompressionOptions.Gzip x) {
                g = x;
            } else if (o instanceof CompressionOptions.Deflate x) {
                d = x;
            }
        }
        brotli = b;
        zstd = z;
        gzip = g;
        deflate = d;
    }

    private static int slotOf(String coding) {
        for (int i = 0; i < CODINGS_BY_PREFERENCE.length; i++) {
            if (CODINGS_BY_PREFERENCE[i].equals(coding)) {
                return i;
            }
        }
        throw new IllegalArgumentException("unknown coding: " + coding);
    }

    /** Whether this cache offers {@code contentCoding} ({@code br}, {@code zstd}, {@code gzip}, {@code deflate}). */
    public boolean offers(String contentCoding) {
        return switch (contentCoding) {
            case "br" -> brotli != null;
            case "zstd" -> zstd != null;
            case "gzip" -> gzip != null;
            case "deflate" -> deflate != null;
            default -> false;
        };
    }

    /**
     * An encoder for the next body in {@code contentCoding}, or null if it is not {@linkplain #offers offered}. The
     * caller {@linkplain ContentEncoder#close() closes} it after the body (which readies a reused state for the
     * next) and asks for the next body's encoder only after that.
     *
     * @param knownLength the body's length if known (a small body gets a smaller brotli window), else -1
     * @throws IllegalStateException if the zstd encoder of the previous body was not closed
     */
    public ContentEncoder acquire(String contentCoding, long knownLength) {
        if (!offers(contentCoding)) {
            return null;
        }
        return switch (contentCoding) {
            case "br" -> new BrotliContentEncoder(brotli, knownLength);
            case "zstd" -> acquireZstd(knownLength);
            default -> acquireZlib(contentCoding.equals("gzip"));
        };
    }

    private ZstdContentEncoder acquireZstd(long knownLength) {
        if (zstdEncoder == null) {
            zstdEncoder = new ZstdContentEncoder(zstd);
        }
        if (!zstdEncoder.acquire(knownLength)) {
            throw new IllegalStateException("zstd encoder still in use by the previous body");
        }
        return zstdEncoder;
    }

    private DeflateContentEncoder acquireZlib(boolean isGzip) {
        DeflateContentEncoder encoder = isGzip ? gzipEncoder : deflateEncoder;
        if (encoder == null || !encoder.acquire()) {
            encoder = new DeflateContentEncoder(isGzip ? gzip.level() : deflate.level(), isGzip);
            encoder.acquire();
            if (isGzip) {
                gzipEncoder = encoder;
            } else {
                deflateEncoder = encoder;
            }
        }
        return encoder;
    }

    /** Frees the kept zlib and zstd states; idempotent. A later {@link #acquire} makes new ones. */
    public void end() {
        if (gzipEncoder != null) {
            gzipEncoder.end();
            gzipEncoder = null;
        }
        if (deflateEncoder != null) {
            deflateEncoder.end();
            deflateEncoder = null;
        }
        if (zstdEncoder != null) {
            zstdEncoder.end();
            zstdEncoder = null;
        }
    }
}
