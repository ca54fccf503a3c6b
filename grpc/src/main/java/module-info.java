/**
 * gRPC on Weir's HTTP/2: the wire protocol (length-prefixed messages, {@code grpc-timeout}, status codes and
 * {@code grpc-message}), a route that serves gRPC methods on HTTP/2 streams, and a client on one connection.
 */
module io.weir.grpc {
    requires transitive io.weir.codec.http2;

    exports io.weir.grpc;
}
