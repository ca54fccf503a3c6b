package io.weir.testsuite.grpc;

import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * grpc-testing-proto's SimpleService as the tests serve it. The request message picks the behaviour of a unary call:
 * {@code deadline} answers the milliseconds left on {@code Context.current()}'s deadline, {@code hang} never answers
 * (and reports its context's cancellation), {@code status:CODE:DESCRIPTION} fails with that status, {@code gzip:N}
 * answers N repetitive bytes compressed, anything else is echoed.
 */
final class SimpleServiceImpl extends SimpleServiceGrpc.SimpleServiceImplBase {
    static final Metadata.Key<byte[]> DETAIL = Metadata.Key.of("x-detail-bin", Metadata.BINARY_BYTE_MARSHALLER);

    /** Completes with the cause of a held call's context cancellation. */
    final CompletableFuture<Throwable> hangContextCancelled = new CompletableFuture<>();
    /** Completes when a held call's first message arrived (bidi) or the call started (unary). */
    final CompletableFuture<Void> hangStarted = new CompletableFuture<>();
    /** Completes when a held call heard onCancel. */
    final CompletableFuture<Void> hangCancelHeard = new CompletableFuture<>();
    /** Calls the service started. */
    final AtomicInteger calls = new AtomicInteger();
    /** Threads the listeners ran on. */
    final List<Thread> threads = new CopyOnWriteArrayList<>();

    static SimpleRequest request(String message) {
        return SimpleRequest.newBuilder().setRequestMessage(message).build();
    }

    static SimpleResponse response(String message) {
        return SimpleResponse.newBuilder().setResponseMessage(message).build();
    }

    @Override
    public void unaryRpc(SimpleRequest request, StreamObserver<SimpleResponse> responses) {
        calls.incrementAndGet();
        threads.add(Thread.currentThread());
        String message = request.getRequestMessage();
        if (message.equals("deadline")) {
            Deadline deadline = Context.current().getDeadline();
            responses.onNext(response(deadline == null ? "none"
                    : Long.toString(deadline.timeRemaining(TimeUnit.MILLISECONDS))));
            responses.onCompleted();
        } else if (message.equals("hang")) {
            ((ServerCallStreamObserver<SimpleResponse>) responses)
                    .setOnCancelHandler(() -> hangCancelHeard.complete(null));
            hold();
        } else if (message.startsWith("status:")) {
            int colon = message.indexOf(':', 7);
            Metadata trailers = new Metadata();
            trailers.put(DETAIL, new byte[] {0, 1, 2, (byte) 0xFF});
            responses.onError(Status.fromCodeValue(Integer.parseInt(message.substring(7, colon)))
                    .withDescription(message.substring(colon + 1)).asRuntimeException(trailers));
        } else if (message.startsWith("gzip:")) {
            ((ServerCallStreamObserver<SimpleResponse>) responses).setCompression("gzip");
            responses.onNext(response("z".repeat(Integer.parseInt(message.substring(5)))));
            responses.onCompleted();
        } else {
            responses.onNext(response(message));
            responses.onCompleted();
        }
    }

    private void hold() {
        Context.current().addListener(c -> hangContextCancelled.complete(c.cancellationCause()), Runnable::run);
        hangStarted.complete(null);
    }

    @Override
    public StreamObserver<SimpleRequest> clientStreamingRpc(StreamObserver<SimpleResponse> responses) {
        calls.incrementAndGet();
        StringBuilder joined = new StringBuilder();
        return new StreamObserver<>() {
            @Override
            public void onNext(SimpleRequest value) {
                joined.append(value.getRequestMessage());
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
                responses.onNext(response(joined.toString()));
                responses.onCompleted();
            }
        };
    }

    /** Answers {@code count:N} with N messages "0" .. "N-1". */
    @Override
    public void serverStreamingRpc(SimpleRequest request, StreamObserver<SimpleResponse> responses) {
        calls.incrementAndGet();
        int count = Integer.parseInt(request.getRequestMessage().substring("count:".length()));
        for (int i = 0; i < count; i++) {
            responses.onNext(response(Integer.toString(i)));
        }
        responses.onCompleted();
    }

    /** Echoes each message; a message {@code hang} holds the call open until it is cancelled. */
    @Override
    public StreamObserver<SimpleRequest> bidiStreamingRpc(StreamObserver<SimpleResponse> responses) {
        calls.incrementAndGet();
        // grpc-java's stubs take a streaming call's cancel handler only before the method returns.
        ((ServerCallStreamObserver<SimpleResponse>) responses)
                .setOnCancelHandler(() -> hangCancelHeard.complete(null));
        return new StreamObserver<>() {
            @Override
            public void onNext(SimpleRequest value) {
                if (value.getRequestMessage().equals("hang")) {
                    hold();
                } else {
                    responses.onNext(response(value.getRequestMessage()));
                }
            }

            @Override
            public void onError(Throwable t) {
            }

            @Override
            public void onCompleted() {
                responses.onCompleted();
            }
        };
    }
}
