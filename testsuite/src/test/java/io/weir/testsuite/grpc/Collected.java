package io.weir.testsuite.grpc;

import io.grpc.stub.StreamObserver;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Collects a call's answers; {@link #done} completes with null on success, the error otherwise. */
final class Collected<T> implements StreamObserver<T> {
    final BlockingQueue<T> messages = new LinkedBlockingQueue<>();
    final CompletableFuture<Throwable> done = new CompletableFuture<>();

    /** The next answer, waiting for it at most 30 seconds. */
    T next() throws InterruptedException {
        T message = messages.poll(30, TimeUnit.SECONDS);
        if (message == null) {
            throw new AssertionError("no answer within 30 s");
        }
        return message;
    }

    @Override
    public void onNext(T value) {
        messages.add(value);
    }

    @Override
    public void onError(Throwable t) {
        done.complete(t);
    }

    @Override
    public void onCompleted() {
        done.complete(null);
    }
}
