package io.weir.server;

import io.weir.grpc.GrpcCallListener;
import io.weir.grpc.GrpcRoute;
import io.weir.grpc.GrpcServerCall;
import io.weir.grpc.GrpcStatus;
import io.weir.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

/** A method that answers nothing: its calls end only by a deadline or a cancel, which it records. */
final class HangMethod implements GrpcRoute.StreamingMethod {
    static final String NAME = "weir.Test/Hang";

    /** Counted down when a call started. */
    final CountDownLatch started = new CountDownLatch(1);
    /** How the first call ended, as its listener heard it. */
    final CompletableFuture<GrpcStatus> ended = new CompletableFuture<>();

    @Override
    public GrpcCallListener start(GrpcServerCall call) {
        started.countDown();
        return new GrpcCallListener() {
            @Override
            public void onMessage(ByteBuf message) {
                message.release();
            }

            @Override
            public void onCancel(GrpcStatus reason) {
                ended.complete(reason);
            }
        };
    }
}
