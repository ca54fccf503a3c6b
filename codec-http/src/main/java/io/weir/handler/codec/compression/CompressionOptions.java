package io.weir.handler.codec.compression;

/**
 * One content coding a compressor (HTTP's {@code HttpContentCompressor}, or any user of {@link ContentEncoderCache})
 * may offer, with its settings. Give the compressor the options
 * of the codings it should offer; codings left out are never used, and {@link Brotli} or {@link Zstd} whose
 * {@linkplain CompressionLibrary library} is missing are dropped silently. Immutable and thread-safe; the
 * factories validate eagerly and throw {@link IllegalArgumentException} with the offending value.
 *
 * <pre>{@code
 * new HttpContentCompressor(1024, CompressionOptions.brotli(5, 22), CompressionOptions.gzip(6))
 * }</pre>
 */
public sealed interface CompressionOptions {
    /** The content coding these options produce, as sent in {@code Content-Encoding}. */
    String contentCoding();

    /** Whether the coding can be used in this JVM (gzip and deflate always; br and zstd if their library loaded). */
    boolean isAvailable();

    /** gzip at level {@value Gzip#DEFAULT_LEVEL}. */
    static Gzip gzip() {
        return new Gzip(Gzip.DEFAULT_LEVEL);
    }

    /** gzip at {@code level} (1 fastest .. 9 smallest). */
    static Gzip gzip(int level) {
        return new Gzip(level);
    }

    /** deflate (zlib) at level {@value Deflate#DEFAULT_LEVEL}. */
    static Deflate deflate() {
        return new Deflate(Deflate.DEFAULT_LEVEL);
    }

    /** deflate (zlib) at {@code level} (1 fastest .. 9 smallest). */
    static Deflate deflate(int level) {
        return new Deflate(level);
    }

    /** brotli at quality {@value Brotli#DEFAULT_QUALITY} with a 2^{@value Brotli#DEFAULT_WINDOW_BITS} byte window. */
    static Brotli brotli() {
        return new Brotli(Brotli.DEFAULT_QUALITY, Brotli.DEFAULT_WINDOW_BITS);
    }

    /** brotli at {@code quality} (0..11) with a window of 2^{@code windowBits} bytes (10..24). */
    static Brotli brotli(int quality, int windowBits) {
        return new Brotli(quality, windowBits);
    }

    /** zstd at level {@value Zstd#DEFAULT_LEVEL} with the level's window (at most 8 MiB). */
    static Zstd zstd() {
        return new Zstd(Zstd.DEFAULT_LEVEL, Zstd.AUTO_WINDOW_LOG);
    }

    /**
     * zstd at {@code level} with a window of 2^{@code windowLog} bytes (10..23), or the level's own window capped
     * at 8 MiB when {@code windowLog} is {@value Zstd#AUTO_WINDOW_LOG}.
     */
    static Zstd zstd(int level, int windowLog) {
        return new Zstd(level, windowLog);
    }

    /** gzip (RFC 1952) through the JDK's zlib. */
    record Gzip(int level) implements CompressionOptions {
        /** zlib's default trade-off between speed and ratio. */
        public static final int DEFAULT_LEVEL = 6;

        /** Validates the level (1..9). */
        public Gzip {
            checkZlibLevel(level);
        }

        @Override
        public String contentCoding() {
            return "gzip";
        }

        @Override
        public boolean isAvailable() {
            return true;
        }
    }

    /** HTTP "deflate": zlib (RFC 1950) through the JDK. */
    record Deflate(int level) implements CompressionOptions {
        /** zlib's default trade-off between speed and ratio. */
        public static final int DEFAULT_LEVEL = 6;

        /** Validates the level (1..9). */
        public Deflate {
            checkZlibLevel(level);
        }

        @Override
        public String contentCoding() {
            return "deflate";
        }

        @Override
        public boolean isAvailable() {
            return true;
        }
    }

    /**
     * Brotli (RFC 7932) through brotli4j. The encoder's memory grows with the window and the quality: quality
     * 4 with a 4 MiB window (the defaults, as in Netty and for on-the-fly compression in web servers) needs
     * a few MiB per response being compressed; qualities 10 and 11 are for precompressed assets, far too slow
     * for dynamic responses.
     */
    record Brotli(int quality, int windowBits) implements CompressionOptions {
        /** Netty's default, a usual choice for compressing dynamic responses on the fly. */
        public static final int DEFAULT_QUALITY = 4;
        /** Brotli's default window: 4 MiB. */
        public static final int DEFAULT_WINDOW_BITS = 22;
        /** Brotli's smallest window: 1 KiB (RFC 7932 §9.1). */
        public static final int MIN_WINDOW_BITS = 10;
        /** Brotli's largest standard window: 16 MiB (RFC 7932 §9.1). */
        public static final int MAX_WINDOW_BITS = 24;

        /** Validates quality (0..11) and window bits (10..24). */
        public Brotli {
            if (quality < 0 || quality > 11) {
                throw new IllegalArgumentException("brotli quality must be 0..11: " + quality);
            }
            if (windowBits < MIN_WINDOW_BITS || windowBits > MAX_WINDOW_BITS) {
                throw new IllegalArgumentException("brotli windowBits must be " + MIN_WINDOW_BITS + ".."
                        + MAX_WINDOW_BITS + ": " + windowBits);
            }
        }

        @Override
        public String contentCoding() {
            return "br";
        }

        @Override
        public boolean isAvailable() {
            return CompressionLibrary.BROTLI.isAvailable();
        }
    }

    /**
     * Zstandard (RFC 8878) through zstd-jni. RFC 9659 §3 caps the window of the HTTP {@code zstd} coding at
     * 8 MiB so that every client can decode it, so the window is at most 2^{@value #MAX_WINDOW_LOG} whatever
     * the level. Level 3 is zstd's default, and Netty's.
     */
    record Zstd(int level, int windowLog) implements CompressionOptions {
        /** zstd's default level. */
        public static final int DEFAULT_LEVEL = 3;
        /** zstd's fastest (negative) level. */
        public static final int MIN_LEVEL = -(1 << 17);
        /** zstd's slowest level. */
        public static final int MAX_LEVEL = 22;
        /** Means: the level's own window, capped at {@link #MAX_WINDOW_LOG}. */
        public static final int AUTO_WINDOW_LOG = 0;
        /** zstd's smallest window: 1 KiB. */
        public static final int MIN_WINDOW_LOG = 10;
        /** RFC 9659 §3: 8 MiB, the largest window an HTTP zstd decoder must accept. */
        public static final int MAX_WINDOW_LOG = 23;

        /** Validates the level ({@value #MIN_LEVEL}..22) and window log (0, or 10..23). */
        public Zstd {
            if (level < MIN_LEVEL || level > MAX_LEVEL) {
                throw new IllegalArgumentException("zstd level must be " + MIN_LEVEL + ".." + MAX_LEVEL + ": "
                        + level);
            }
            if (windowLog != AUTO_WINDOW_LOG && (windowLog < MIN_WINDOW_LOG || windowLog > MAX_WINDOW_LOG)) {
                throw new IllegalArgumentException("zstd windowLog must be 0 (automatic) or " + MIN_WINDOW_LOG
                        + ".." + MAX_WINDOW_LOG + ": " + windowLog);
            }
        }

        @Override
        public String contentCoding() {
            return "zstd";
        }

        @Override
        public boolean isAvailable() {
            return CompressionLibrary.ZSTD.isAvailable();
        }
    }

    private static void checkZlibLevel(int level) {
        if (level < 1 || level > 9) {
            throw new IllegalArgumentException("compression level must be 1..9: " + level);
        }
    }
}
