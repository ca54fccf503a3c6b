/**
 * Weir's HTTP/2 (RFC 9113) with HPACK (RFC 7541): frames, connection state and flow control, streams as child
 * channels, and h2c. Implementation details live in {@code io.weir.handler.codec.http2.internal}, which is not
 * exported.
 */
module io.weir.codec.http2 {
    requires transitive io.weir.codec.http;
    // HttpServerInitializer: TLS with ALPN.
    requires transitive io.weir.handler.ssl;

    exports io.weir.handler.codec.http2;
}
