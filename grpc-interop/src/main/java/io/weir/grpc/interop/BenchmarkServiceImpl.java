package io.weir.grpc.interop;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.BenchmarkServiceGrpc;
import io.grpc.testing.integration.Messages.Payload;
import io.grpc.testing.integration.Messages.SimpleRequest;
import io.grpc.testing.integration.Messages.SimpleResponse;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code grpc.testing.BenchmarkService}, the service grpc-go's benchmark client drives: a response of the requested
 * size for each request ({@code UnaryCall}, and {@code StreamingCall} as ping-pong), and for
 * {@code StreamingFromServer} the same response again and again, as fast as flow control lets it go, until the
 * client cancels. Responses of one size are built once and shared, so the benchmark measures the transport rather
 * than protobuf.
 */
public final class BenchmarkServiceImpl implements BenchmarkServiceGrpc.AsyncService {
    /** The largest response a request may ask for. */
    public static final int MAX_RESPONSE_BYTES = 1 << 20;

    private final ConcurrentHashMap<Integer, SimpleResponse> responses = new ConcurrentHashMap<>();

    private SimpleResponse response(SimpleRequest request) {
        int size = request.getResponseSize();
        if (size < 0 || size > MAX_RESPONSE_BYTES) {
            throw Status.INVALID_ARGUMENT.withDescription("response_size " + size).asRuntimeException();
        }
        return responses.computeIfAbsent(size, n -> SimpleResponse.newBuilder()
                .setPayload(Payload.newBuilder().setBody(ByteString.copyFrom(new byte[n]))).build());
    }

    @Override
    public void unaryCall(SimpleRequest request, StreamObserver<SimpleResponse> out) {
        out.onNext(response(request));
        out.onCompleted();
    }

    @Override
    public StreamObserver<SimpleRequest> streamingCall(StreamObserver<SimpleResponse> out) {
        return new StreamObserver<>() {
            @Override
            public void onNext(SimpleRequest request) {
                out.onNext(response(request));
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
                out.onCompleted();
            }
        };
    }

    @Override
    public void streamingFromServer(SimpleRequest request, StreamObserver<SimpleResponse> out) {
        SimpleResponse response = response(request);
        ServerCallStreamObserver<SimpleResponse> call = (ServerCallStreamObserver<SimpleResponse>) out;
        // Send while the transport takes more, resume when it drains: a client that reads slowly stops the server
        // at the HTTP/2 window instead of filling its memory.
        call.setOnReadyHandler(() -> {
            while (call.isReady() && !call.isCancelled()) {
                call.onNext(response);
            }
        });
        call.setOnCancelHandler(() -> {
        });
    }
}
