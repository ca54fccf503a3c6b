package io.weir.grpc.interop;

import com.google.protobuf.ByteString;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.integration.EmptyProtos.Empty;
import io.grpc.testing.integration.Messages.EchoStatus;
import io.grpc.testing.integration.Messages.Payload;
import io.grpc.testing.integration.Messages.PayloadType;
import io.grpc.testing.integration.Messages.ResponseParameters;
import io.grpc.testing.integration.Messages.SimpleRequest;
import io.grpc.testing.integration.Messages.SimpleResponse;
import io.grpc.testing.integration.Messages.StreamingInputCallRequest;
import io.grpc.testing.integration.Messages.StreamingInputCallResponse;
import io.grpc.testing.integration.Messages.StreamingOutputCallRequest;
import io.grpc.testing.integration.Messages.StreamingOutputCallResponse;
import io.grpc.testing.integration.TestServiceGrpc;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code grpc.testing.TestService} as the gRPC interop test descriptions define it: sized payloads of zeros, the
 * requested status echoed back, streams paced by {@code interval_us}. Metadata echo is {@link EchoMetadata}'s work.
 * Delays are scheduled on {@code timer}, never slept, so the service may run on the event loop.
 */
public final class TestServiceImpl extends TestServiceGrpc.TestServiceImplBase {
    /** The largest payload a request may ask for: a peer must not make the server allocate without bound. */
    public static final int MAX_PAYLOAD_BYTES = 4 << 20;

    private final ScheduledExecutorService timer;

    /** @param timer runs the delayed responses of streams that ask for intervals */
    public TestServiceImpl(ScheduledExecutorService timer) {
        this.timer = Objects.requireNonNull(timer, "timer");
    }

    @Override
    public void emptyCall(Empty request, StreamObserver<Empty> responses) {
        responses.onNext(Empty.getDefaultInstance());
        responses.onCompleted();
    }

    @Override
    public void unaryCall(SimpleRequest request, StreamObserver<SimpleResponse> responses) {
        if (request.getResponseCompressed().getValue()) {
            ((ServerCallStreamObserver<SimpleResponse>) responses).setCompression("gzip");
        }
        if (failWith(request.getResponseStatus(), responses)) {
            return;
        }
        Payload payload;
        try {
            payload = zeros(request.getResponseSize());
        } catch (IllegalArgumentException e) {
            responses.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        responses.onNext(SimpleResponse.newBuilder().setPayload(payload).build());
        responses.onCompleted();
    }

    @Override
    public void streamingOutputCall(StreamingOutputCallRequest request,
            StreamObserver<StreamingOutputCallResponse> responses) {
        Responder responder = new Responder(responses);
        responder.respond(request);
        responder.complete();
    }

    @Override
    public StreamObserver<StreamingInputCallRequest> streamingInputCall(
            StreamObserver<StreamingInputCallResponse> responses) {
        return new StreamObserver<>() {
            private long total;

            @Override
            public void onNext(StreamingInputCallRequest request) {
                total += request.getPayload().getBody().size();
            }

            @Override
            public void onError(Throwable t) {
                // The client cancelled: nothing to answer.
            }

            @Override
            public void onCompleted() {
                responses.onNext(StreamingInputCallResponse.newBuilder()
                        .setAggregatedPayloadSize((int) Math.min(Integer.MAX_VALUE, total)).build());
                responses.onCompleted();
            }
        };
    }

    @Override
    public StreamObserver<StreamingOutputCallRequest> fullDuplexCall(
            StreamObserver<StreamingOutputCallResponse> responses) {
        Responder responder = new Responder(responses);
        return new StreamObserver<>() {
            @Override
            public void onNext(StreamingOutputCallRequest request) {
                responder.respond(request);
            }

            @Override
            public void onError(Throwable t) {
                responder.cancel();
            }

            @Override
            public void onCompleted() {
                responder.complete();
            }
        };
    }

    @Override
    public StreamObserver<StreamingOutputCallRequest> halfDuplexCall(
            StreamObserver<StreamingOutputCallResponse> responses) {
        Responder responder = new Responder(responses);
        List<StreamingOutputCallRequest> requests = new ArrayList<>();
        return new StreamObserver<>() {
            @Override
            public void onNext(StreamingOutputCallRequest request) {
                if (requests.size() >= 1024) {
                    responses.onError(Status.RESOURCE_EXHAUSTED.withDescription("more than 1024 requests")
                            .asRuntimeException());
                    return;
                }
                requests.add(request);
            }

            @Override
            public void onError(Throwable t) {
                responder.cancel();
            }

            @Override
            public void onCompleted() {
                requests.forEach(responder::respond);
                responder.complete();
            }
        };
    }

    /** Ends the call with the requested status when it is not OK; true then. */
    private static boolean failWith(EchoStatus status, StreamObserver<?> responses) {
        if (status.getCode() == 0) {
            return false;
        }
        responses.onError(Status.fromCodeValue(status.getCode()).withDescription(status.getMessage())
                .asRuntimeException());
        return true;
    }

    static Payload zeros(int size) {
        if (size < 0 || size > MAX_PAYLOAD_BYTES) {
            throw new IllegalArgumentException("payload size " + size + " (expected 0.." + MAX_PAYLOAD_BYTES + ")");
        }
        return Payload.newBuilder().setType(PayloadType.COMPRESSABLE).setBody(ByteString.copyFrom(new byte[size]))
                .build();
    }

    /**
     * The responses of one streaming call, in order: each request's response parameters become responses, each
     * after its interval; a requested status or the end of the requests ends the call once everything before it
     * went out. One step at a time, on the caller's thread or the timer's, never both at once.
     */
    private final class Responder {
        private final StreamObserver<StreamingOutputCallResponse> responses;
        /** Responses, statuses (as Status) and the completion (as Boolean.TRUE) not yet sent. */
        private final ArrayDeque<Object> queue = new ArrayDeque<>();
        private boolean scheduled;
        private boolean done;

        Responder(StreamObserver<StreamingOutputCallResponse> responses) {
            this.responses = responses;
            if (responses instanceof ServerCallStreamObserver<?> call) {
                // A cancelled call takes no more responses: the timer's pending ones are dropped.
                call.setOnCancelHandler(this::cancel);
            }
        }

        synchronized void respond(StreamingOutputCallRequest request) {
            for (ResponseParameters p : request.getResponseParametersList()) {
                queue.add(p);
            }
            EchoStatus status = request.getResponseStatus();
            if (status.getCode() != 0) {
                queue.add(Status.fromCodeValue(status.getCode()).withDescription(status.getMessage()));
            }
            drain();
        }

        synchronized void complete() {
            queue.add(Boolean.TRUE);
            drain();
        }

        synchronized void cancel() {
            done = true;
            queue.clear();
        }

        private void drain() {
            while (!scheduled && !done && !queue.isEmpty()) {
                Object next = queue.peekFirst();
                if (next instanceof ResponseParameters p && p.getIntervalUs() > 0) {
                    // Wait the interval, then send it (and go on) from the timer.
                    scheduled = true;
                    ResponseParameters delayed = p.toBuilder().setIntervalUs(0).build();
                    queue.pollFirst();
                    queue.addFirst(delayed);
                    timer.schedule(this::resume, p.getIntervalUs(), TimeUnit.MICROSECONDS);
                    return;
                }
                queue.pollFirst();
                if (next instanceof ResponseParameters p) {
                    Payload payload;
                    try {
                        payload = zeros(p.getSize());
                    } catch (IllegalArgumentException e) {
                        done = true;
                        responses.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage())
                                .asRuntimeException());
                        return;
                    }
                    responses.onNext(StreamingOutputCallResponse.newBuilder().setPayload(payload).build());
                } else if (next instanceof Status status) {
                    done = true;
                    responses.onError(status.asRuntimeException());
                } else {
                    done = true;
                    responses.onCompleted();
                }
            }
        }

        private synchronized void resume() {
            scheduled = false;
            drain();
        }
    }
}
