package io.weir.handler.codec.compression;

/**
 * The optional native libraries behind the {@code br} and {@code zstd} content codings, and whether each can be
 * used in this JVM. Both are optional Maven dependencies of weir-codec-http: without them, or without their
 * native code for this platform, {@link ContentEncoderCache} does not offer the coding and
 * {@link ContentDecoder#forCoding} knows no decoder for it, so HTTP's compressor never offers it and its
 * decompressor passes such bodies on untouched, as it does for any coding it does not know.
 *
 * <ul>
 *   <li>{@link #BROTLI}: {@code com.aayushatharva.brotli4j:brotli4j} plus the native jar for the platform, e.g.
 *       {@code com.aayushatharva.brotli4j:native-linux-x86_64} (module {@code com.aayushatharva.brotli4j}).</li>
 *   <li>{@link #ZSTD}: {@code com.github.luben:zstd-jni}, natives included (module
 *       {@code com.github.luben.zstd_jni}).</li>
 * </ul>
 *
 * <p>Each library is probed once, the first time its constant is asked, and never throws: a missing class or
 * native library is kept as the {@linkplain #unavailabilityCause() cause}. Safe to call from any thread.
 */
public enum CompressionLibrary {
    /** Brotli (RFC 7932) through brotli4j: content coding {@code br}. */
    BROTLI("br"),
    /** Zstandard (RFC 8878, RFC 9659 for HTTP) through zstd-jni: content coding {@code zstd}. */
    ZSTD("zstd");

    private final String contentCoding;

    CompressionLibrary(String contentCoding) {
        this.contentCoding = contentCoding;
    }

    /** The content coding this library provides, as sent in {@code Content-Encoding}. */
    public String contentCoding() {
        return contentCoding;
    }

    /** Whether the library and its native code loaded; never throws. */
    public boolean isAvailable() {
        return unavailabilityCause() == null;
    }

    /** Why the library cannot be used (a missing class, a native library that failed to load), or null. */
    public Throwable unavailabilityCause() {
        // Holder classes: probing one library never loads the other's classes.
        return this == BROTLI ? BrotliProbe.CAUSE : ZstdProbe.CAUSE;
    }

    /**
     * Does nothing if the library is available.
     *
     * @throws IllegalStateException naming the coding and carrying the {@linkplain #unavailabilityCause() cause}
     */
    public void ensureAvailable() {
        Throwable cause = unavailabilityCause();
        if (cause != null) {
            throw new IllegalStateException("content coding " + contentCoding + " is unavailable: " + cause, cause);
        }
    }

    private static void logUnavailable(String coding, Throwable cause) {
        System.getLogger(CompressionLibrary.class.getName()).log(System.Logger.Level.DEBUG,
                "content coding " + coding + " unavailable", cause);
    }

    private static final class BrotliProbe {
        static final Throwable CAUSE = probe();

        private static Throwable probe() {
            Throwable cause;
            try {
                cause = com.aayushatharva.brotli4j.Brotli4jLoader.isAvailable() ? null
                        : com.aayushatharva.brotli4j.Brotli4jLoader.getUnavailabilityCause();
                if (cause == null && !com.aayushatharva.brotli4j.Brotli4jLoader.isAvailable()) {
                    cause = new UnsatisfiedLinkError("brotli4j native library not loaded");
                }
            } catch (Throwable t) {
                // NoClassDefFoundError when the optional jar is absent, UnsatisfiedLinkError for its native.
                cause = t;
            }
            if (cause != null) {
                logUnavailable("br", cause);
            }
            return cause;
        }
    }

    private static final class ZstdProbe {
        static final Throwable CAUSE = probe();

        private static Throwable probe() {
            Throwable cause;
            try {
                com.github.luben.zstd.util.Native.load();
                cause = com.github.luben.zstd.util.Native.isLoaded() ? null
                        : new UnsatisfiedLinkError("zstd-jni native library not loaded");
            } catch (Throwable t) {
                cause = t;
            }
            if (cause != null) {
                logUnavailable("zstd", cause);
            }
            return cause;
        }
    }
}
