package io.weir.testsuite.grpc;

import io.grpc.Context;
import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.ServerCall;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;

/**
 * {@code weir.Test/Hang}, a method that answers nothing, served the same on Weir and on grpc-java: its calls end
 * only by a deadline or a cancel, which it records as the call's {@code Context} saw it.
 */
final class HangService {
    static final String NAME = "weir.Test/Hang";
    /** The method called as unary (the wire does not say which kind a call is). */
    static final MethodDescriptor<byte[], byte[]> UNARY = GrpcJava.method(NAME, MethodType.UNARY);
    static final MethodDescriptor<byte[], byte[]> BIDI = GrpcJava.method(NAME, MethodType.BIDI_STREAMING);

    /** Counted down when a call started. */
    final CountDownLatch started = new CountDownLatch(1);
    /** Counted down when a call received its first message. */
    final CountDownLatch received = new CountDownLatch(1);
    /** How the first call ended: DEADLINE_EXCEEDED or CANCELLED. */
    final CompletableFuture<Status.Code> ended = new CompletableFuture<>();

    ServerServiceDefinition definition() {
        return ServerServiceDefinition.builder("weir.Test")
                .addMethod(BIDI, (call, headers) -> {
                    started.countDown();
                    call.request(Integer.MAX_VALUE);
                    return new ServerCall.Listener<>() {
                        @Override
                        public void onMessage(byte[] message) {
                            received.countDown();
                        }

                        @Override
                        public void onCancel() {
                            Throwable cause = Context.current().cancellationCause();
                            ended.complete(cause instanceof TimeoutException ? Status.Code.DEADLINE_EXCEEDED
                                    : cause == null ? Status.Code.CANCELLED : Status.fromThrowable(cause).getCode());
                        }
                    };
                })
                .build();
    }
}
