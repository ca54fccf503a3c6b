package io.weir.server;

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
 * A bidirectional method that answers nothing: its calls end only by a deadline or a cancel, which it records as
 * the call's {@code Context} saw it.
 */
final class HangMethod {
    final MethodDescriptor<byte[], byte[]> method;
    /** Counted down when a call started. */
    final CountDownLatch started = new CountDownLatch(1);
    /** How the first call ended: DEADLINE_EXCEEDED or CANCELLED. */
    final CompletableFuture<Status.Code> ended = new CompletableFuture<>();

    HangMethod(String fullName) {
        method = MethodDescriptor.<byte[], byte[]>newBuilder().setType(MethodType.BIDI_STREAMING)
                .setFullMethodName(fullName).setRequestMarshaller(GrpcEchoService.BYTES)
                .setResponseMarshaller(GrpcEchoService.BYTES).build();
    }

    /** The service (named as {@link #method}'s) holding just this method. */
    ServerServiceDefinition service() {
        return ServerServiceDefinition.builder(MethodDescriptor.extractFullServiceName(method.getFullMethodName()))
                .addMethod(method, (call, headers) -> {
                    started.countDown();
                    call.request(Integer.MAX_VALUE);
                    return new ServerCall.Listener<>() {
                        @Override
                        public void onCancel() {
                            Throwable cause = Context.current().cancellationCause();
                            ended.complete(cause instanceof TimeoutException ? Status.Code.DEADLINE_EXCEEDED
                                    : Status.fromThrowable(cause).getCode());
                        }
                    };
                })
                .build();
    }
}
