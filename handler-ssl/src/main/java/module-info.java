/**
 * Weir's TLS: {@link io.weir.handler.ssl.SslHandler} over an {@code SSLEngine}, {@code SslContext} and its builder,
 * PEM reading, ALPN and SNI.
 */
module io.weir.handler.ssl {
    requires transitive io.weir.codec;
    requires transitive io.weir.handler;

    exports io.weir.handler.ssl;
}
