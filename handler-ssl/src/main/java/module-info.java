/**
 * Weir's TLS: {@link io.weir.handler.ssl.SslHandler} over an {@code SSLEngine}, {@code SslContext} and its builder,
 * PEM reading, ALPN and SNI; the JDK provider and an OpenSSL (BoringSSL through netty-tcnative) one.
 */
module io.weir.handler.ssl {
    requires transitive io.weir.codec;
    requires transitive io.weir.handler;
    // Optional at run time: without netty-tcnative, OpenSsl.isAvailable() is false and the JDK provider is used.
    requires static io.netty.tcnative.classes.openssl;

    exports io.weir.handler.ssl;
}
