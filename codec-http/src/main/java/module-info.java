/**
 * Weir's HTTP/1.1 codec: messages and headers, request and response decoders and encoders, the server and
 * client codecs, aggregation, keep-alive and {@code Expect: 100-continue} handling.
 */
module io.weir.codec.http {
    requires transitive io.weir.codec;
    requires transitive io.weir.handler;

    exports io.weir.handler.codec.http;
    exports io.weir.handler.codec.http.multipart;
}
