/**
 * gRPC on Weir's HTTP/2 through grpc-java's public API: grpc-java's services served on Weir's HTTP/2 streams
 * ({@link io.weir.grpc.GrpcServices}) and a {@code ManagedChannel} for its stubs ({@link io.weir.grpc.WeirGrpcChannel}).
 */
module io.weir.grpc {
    requires transitive io.weir.codec.http2;
    // WeirGrpcChannel's TLS (a client SslContext with ALPN h2).
    requires transitive io.weir.handler.ssl;
    // grpc-java's public API (an automatic module): GrpcServices takes its services, interceptors and codecs.
    requires transitive io.grpc;

    exports io.weir.grpc;
}
