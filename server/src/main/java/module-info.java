/**
 * Weir's reference HTTP server: HTTP/1.1, h2c and HTTP/2 over TLS with ALPN on one pipeline of handlers, static
 * files, multipart uploads, a WebSocket echo and gRPC services, with the recommended timeouts and limits on. The
 * tests, the interop runs and the load benchmarks use it as the server under test.
 */
module io.weir.server {
    requires transitive io.weir.codec.http2;
    requires transitive io.weir.handler.ssl;
    requires transitive io.weir.grpc;
    requires io.weir.codec.haproxy;
    requires io.weir.transport.epoll;
    requires io.weir.transport.kqueue;
    requires io.weir.transport.iouring;
    requires java.management;
    requires jdk.management;

    exports io.weir.server;
}
