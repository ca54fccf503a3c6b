package io.weir.testsuite.grpc;

import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * weir.Flood/Flood, a server-streaming method that sends 1 KiB messages for as long as the call is ready, resumed
 * by onReady, up to the count its request names ({@code count:N}, unlimited otherwise): what a well-behaved
 * streaming service does against a client that reads slowly or never.
 */
final class FloodService {
    static final MethodDescriptor<SimpleRequest, SimpleResponse> FLOOD = SimpleServiceGrpc
            .getServerStreamingRpcMethod().toBuilder().setFullMethodName("weir.Flood/Flood").build();

    /** The messages sent when isReady() first turned false. */
    final CompletableFuture<Integer> stalled = new CompletableFuture<>();
    final CompletableFuture<Void> cancelled = new CompletableFuture<>();

    ServerServiceDefinition definition() {
        return ServerServiceDefinition.builder("weir.Flood").addMethod(FLOOD,
                ServerCalls.asyncServerStreamingCall((SimpleRequest request, StreamObserver<SimpleResponse> o) -> {
                    ServerCallStreamObserver<SimpleResponse> out = (ServerCallStreamObserver<SimpleResponse>) o;
                    out.setOnCancelHandler(() -> cancelled.complete(null));
                    String text = request.getRequestMessage();
                    int count = text.startsWith("count:") ? Integer.parseInt(text.substring(6)) : Integer.MAX_VALUE;
                    SimpleResponse message = SimpleServiceImpl.response("f".repeat(1024));
                    AtomicInteger sent = new AtomicInteger();
                    AtomicBoolean completed = new AtomicBoolean();
                    out.setOnReadyHandler(() -> {
                        while (out.isReady() && sent.get() < count) {
                            out.onNext(message);
                            sent.incrementAndGet();
                        }
                        if (sent.get() < count) {
                            stalled.complete(sent.get());
                        } else if (completed.compareAndSet(false, true)) {
                            out.onCompleted();
                        }
                    });
                })).build();
    }
}
