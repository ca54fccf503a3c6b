/**
 * Weir's HTTP/1.1 codec: messages and headers, request and response decoders and encoders, the server and
 * client codecs, aggregation, keep-alive and {@code Expect: 100-continue} handling, server read timeouts, and the
 * application codecs: query strings, cookies, CORS, content compression and POST bodies (multipart and
 * urlencoded).
 */
module io.weir.codec.http {
    requires transitive io.weir.codec;
    requires transitive io.weir.handler;
    // Optional: br and zstd content codings (see CompressionLibrary); absent at run time, they are not offered.
    requires static com.aayushatharva.brotli4j;
    requires static com.github.luben.zstd_jni;

    exports io.weir.handler.codec.compression;
    exports io.weir.handler.codec.http;
    exports io.weir.handler.codec.http.cookie;
    exports io.weir.handler.codec.http.cors;
    exports io.weir.handler.codec.http.multipart;
    exports io.weir.handler.codec.http.websocketx;
}
