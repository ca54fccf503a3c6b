package io.weir.grpc.interop;

import io.grpc.ForwardingServerCall.SimpleForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;

/**
 * The interop tests' metadata echo: {@code x-grpc-test-echo-initial} comes back in the response headers and
 * {@code x-grpc-test-echo-trailing-bin} in the trailers, as the client sent them.
 */
public final class EchoMetadata implements ServerInterceptor {
    /** Echoed in the response headers. */
    public static final Metadata.Key<String> ECHO_INITIAL =
            Metadata.Key.of("x-grpc-test-echo-initial", Metadata.ASCII_STRING_MARSHALLER);
    /** Echoed in the trailers. */
    public static final Metadata.Key<byte[]> ECHO_TRAILING_BIN =
            Metadata.Key.of("x-grpc-test-echo-trailing-bin", Metadata.BINARY_BYTE_MARSHALLER);

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
            ServerCallHandler<Q, R> next) {
        String initial = headers.get(ECHO_INITIAL);
        byte[] trailing = headers.get(ECHO_TRAILING_BIN);
        if (initial == null && trailing == null) {
            return next.startCall(call, headers);
        }
        return next.startCall(new SimpleForwardingServerCall<>(call) {
            @Override
            public void sendHeaders(Metadata responseHeaders) {
                if (initial != null) {
                    responseHeaders.put(ECHO_INITIAL, initial);
                }
                super.sendHeaders(responseHeaders);
            }

            @Override
            public void close(Status status, Metadata trailers) {
                if (trailing != null) {
                    trailers.put(ECHO_TRAILING_BIN, trailing);
                }
                super.close(status, trailers);
            }
        }, headers);
    }
}
