package io.weir.handler.ssl;

/**
 * The TLS implementation behind an {@link SslContext}; both drive the same {@link SslHandler}.
 * {@link SslContextBuilder} uses {@link #defaultProvider()} unless told otherwise.
 */
public enum SslProvider {
    /** The JDK's {@link javax.net.ssl.SSLEngine} (SunJSSE or whatever provider {@code SSLContext.getInstance("TLS")} returns). */
    JDK,
    /**
     * BoringSSL through netty-tcnative's JNI classes, driven by Weir's own engine: native buffers, several times
     * the JDK's handshake rate. Usable where {@link OpenSsl#isAvailable()}.
     */
    OPENSSL;

    /** {@link #OPENSSL} where {@link OpenSsl#isAvailable()}, {@link #JDK} otherwise. */
    public static SslProvider defaultProvider() {
        return OpenSsl.isAvailable() ? OPENSSL : JDK;
    }
}
