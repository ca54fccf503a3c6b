/**
 * gRPC on Weir's HTTP/2: the wire protocol (length-prefixed messages, {@code grpc-timeout}, status codes and
 * {@code grpc-message}), a route that serves gRPC methods on HTTP/2 streams (raw methods, and grpc-java's generated
 * services through {@link io.weir.grpc.GrpcServices}), and a client on one connection.
 */
module io.weir.grpc {
    requires transitive io.weir.codec.http2;
    // WeirGrpcChannel's TLS (a client SslContext with ALPN h2).
    requires transitive io.weir.handler.ssl;
    // grpc-java's public API (an automatic module): GrpcServices takes its services, interceptors and codecs.
    requires transitive io.grpc;

    exports io.weir.grpc;
}
