package io.weir.grpc;

import io.weir.handler.codec.http2.Http2Headers;
import io.weir.util.AsciiString;

/** The header names and values of gRPC over HTTP/2 (grpc/grpc {@code doc/PROTOCOL-HTTP2.md}), shared by both sides. */
final class GrpcHeaderNames {
    static final AsciiString CONTENT_TYPE = AsciiString.cached("content-type");
    static final AsciiString APPLICATION_GRPC = AsciiString.cached("application/grpc");
    static final AsciiString GRPC_STATUS = AsciiString.cached("grpc-status");
    static final AsciiString GRPC_MESSAGE = AsciiString.cached("grpc-message");
    static final AsciiString GRPC_TIMEOUT = AsciiString.cached("grpc-timeout");
    static final AsciiString GRPC_ENCODING = AsciiString.cached("grpc-encoding");
    static final AsciiString GRPC_ACCEPT_ENCODING = AsciiString.cached("grpc-accept-encoding");
    static final AsciiString IDENTITY = AsciiString.cached("identity");

    private GrpcHeaderNames() {
    }

    /** Whether {@code headers} ask for gRPC: {@code content-type} is application/grpc or application/grpc+... */
    static boolean isGrpc(Http2Headers headers) {
        CharSequence type = headers.get(CONTENT_TYPE);
        int prefix = APPLICATION_GRPC.length();
        if (type == null || type.length() < prefix) {
            return false;
        }
        for (int i = 0; i < prefix; i++) {
            // Media types compare case-insensitively (RFC 9110 §8.3.1); the prefix is lower case.
            if ((type.charAt(i) | 0x20) != (APPLICATION_GRPC.charAt(i) | 0x20)) {
                return false;
            }
        }
        if (type.length() == prefix) {
            return true;
        }
        char next = type.charAt(prefix);
        return next == '+' || next == ';';
    }
}
