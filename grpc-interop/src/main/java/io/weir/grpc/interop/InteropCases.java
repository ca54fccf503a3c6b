package io.weir.grpc.interop;

import com.google.protobuf.ByteString;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.integration.EmptyProtos.Empty;
import io.grpc.testing.integration.Messages.EchoStatus;
import io.grpc.testing.integration.Messages.Payload;
import io.grpc.testing.integration.Messages.ResponseParameters;
import io.grpc.testing.integration.Messages.SimpleRequest;
import io.grpc.testing.integration.Messages.SimpleResponse;
import io.grpc.testing.integration.Messages.StreamingInputCallRequest;
import io.grpc.testing.integration.Messages.StreamingInputCallResponse;
import io.grpc.testing.integration.Messages.StreamingOutputCallRequest;
import io.grpc.testing.integration.Messages.StreamingOutputCallResponse;
import io.grpc.testing.integration.TestServiceGrpc;
import io.grpc.testing.integration.UnimplementedServiceGrpc;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The interop test cases that need no cloud credentials, as the gRPC interop test descriptions define them, run
 * over any {@link Channel} with generated stubs. Each throws an {@link AssertionError} (or the call's
 * {@link StatusRuntimeException}) when the server's behaviour differs; every wait has a deadline.
 */
public final class InteropCases {
    /** The cases, by the names grpc's interop clients use for them. */
    public static final List<String> NAMES = List.of("empty_unary", "large_unary", "client_streaming",
            "server_streaming", "ping_pong", "empty_stream", "timeout_on_sleeping_server", "cancel_after_begin",
            "cancel_after_first_response", "status_code_and_message", "special_status_message", "custom_metadata",
            "unimplemented_method", "unimplemented_service", "rpc_soak");

    private static final long DEADLINE_SECONDS = 30;
    private static final int[] STREAM_RESPONSE_SIZES = {31415, 9, 2653, 58979};
    private static final int[] STREAM_REQUEST_SIZES = {27182, 8, 1828, 45904};
    private static final String SPECIAL_MESSAGE = "\t\ntest with whitespace\r\nand Unicode BMP \u263A and non-BMP "
            + "\uD83D\uDE08\t\n";

    private final Channel channel;
    private final int soakIterations;

    /** Cases over {@code channel}; {@code rpc_soak} makes {@code soakIterations} calls. */
    public InteropCases(Channel channel, int soakIterations) {
        this.channel = channel;
        this.soakIterations = soakIterations;
    }

    /**
     * Runs the case named {@code name}.
     *
     * @throws IllegalArgumentException for a name not in {@link #NAMES}
     */
    public void run(String name) throws Exception {
        switch (name) {
            case "empty_unary" -> emptyUnary();
            case "large_unary" -> largeUnary();
            case "client_streaming" -> clientStreaming();
            case "server_streaming" -> serverStreaming();
            case "ping_pong" -> pingPong();
            case "empty_stream" -> emptyStream();
            case "timeout_on_sleeping_server" -> timeoutOnSleepingServer();
            case "cancel_after_begin" -> cancelAfterBegin();
            case "cancel_after_first_response" -> cancelAfterFirstResponse();
            case "status_code_and_message" -> statusCodeAndMessage("test status message");
            case "special_status_message" -> statusCodeAndMessage(SPECIAL_MESSAGE);
            case "custom_metadata" -> customMetadata();
            case "unimplemented_method" -> unimplementedMethod();
            case "unimplemented_service" -> unimplementedService();
            case "rpc_soak" -> {
                for (int i = 0; i < soakIterations; i++) {
                    largeUnary();
                }
            }
            default -> throw new IllegalArgumentException("unknown test case " + name + "; known: " + NAMES);
        }
    }

    private TestServiceGrpc.TestServiceBlockingStub blocking() {
        return TestServiceGrpc.newBlockingStub(channel).withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
    }

    private TestServiceGrpc.TestServiceStub async() {
        return TestServiceGrpc.newStub(channel).withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS);
    }

    private void emptyUnary() {
        check(blocking().emptyCall(Empty.getDefaultInstance()).equals(Empty.getDefaultInstance()), "empty response");
    }

    private static SimpleRequest largeRequest() {
        return SimpleRequest.newBuilder().setResponseSize(314159).setPayload(zeros(271828)).build();
    }

    private void largeUnary() {
        SimpleResponse response = blocking().unaryCall(largeRequest());
        checkZeros(response.getPayload(), 314159);
    }

    private void clientStreaming() throws Exception {
        Observer<StreamingInputCallResponse> responses = new Observer<>();
        StreamObserver<StreamingInputCallRequest> requests = async().streamingInputCall(responses);
        for (int size : STREAM_REQUEST_SIZES) {
            requests.onNext(StreamingInputCallRequest.newBuilder().setPayload(zeros(size)).build());
        }
        requests.onCompleted();
        List<StreamingInputCallResponse> got = responses.completed();
        check(got.size() == 1 && got.get(0).getAggregatedPayloadSize() == 74922,
                "aggregated payload size 74922, got " + got);
    }

    private void serverStreaming() {
        StreamingOutputCallRequest.Builder request = StreamingOutputCallRequest.newBuilder();
        for (int size : STREAM_RESPONSE_SIZES) {
            request.addResponseParameters(ResponseParameters.newBuilder().setSize(size));
        }
        Iterator<StreamingOutputCallResponse> responses = blocking().streamingOutputCall(request.build());
        List<Integer> sizes = new ArrayList<>();
        responses.forEachRemaining(r -> sizes.add(r.getPayload().getBody().size()));
        check(sizes.equals(List.of(31415, 9, 2653, 58979)), "response sizes " + sizes);
    }

    private void pingPong() throws Exception {
        Observer<StreamingOutputCallResponse> responses = new Observer<>();
        StreamObserver<StreamingOutputCallRequest> requests = async().fullDuplexCall(responses);
        for (int i = 0; i < STREAM_RESPONSE_SIZES.length; i++) {
            requests.onNext(pingRequest(STREAM_RESPONSE_SIZES[i], STREAM_REQUEST_SIZES[i]));
            StreamingOutputCallResponse response = responses.next();
            checkZeros(response.getPayload(), STREAM_RESPONSE_SIZES[i]);
        }
        requests.onCompleted();
        check(responses.completed().isEmpty(), "no response after the last ping");
    }

    private static StreamingOutputCallRequest pingRequest(int responseSize, int requestSize) {
        return StreamingOutputCallRequest.newBuilder()
                .addResponseParameters(ResponseParameters.newBuilder().setSize(responseSize))
                .setPayload(zeros(requestSize)).build();
    }

    private void emptyStream() throws Exception {
        Observer<StreamingOutputCallResponse> responses = new Observer<>();
        async().fullDuplexCall(responses).onCompleted();
        check(responses.completed().isEmpty(), "no responses");
    }

    private void timeoutOnSleepingServer() throws Exception {
        Observer<StreamingOutputCallResponse> responses = new Observer<>();
        StreamObserver<StreamingOutputCallRequest> requests = TestServiceGrpc.newStub(channel)
                .withDeadlineAfter(1, TimeUnit.MILLISECONDS).fullDuplexCall(responses);
        try {
            requests.onNext(StreamingOutputCallRequest.newBuilder().setPayload(zeros(27182)).build());
        } catch (IllegalStateException e) {
            // The deadline may already have ended the call: that is the expected outcome too.
        }
        responses.failed(Status.Code.DEADLINE_EXCEEDED);
    }

    private void cancelAfterBegin() throws Exception {
        Observer<StreamingInputCallResponse> responses = new Observer<>();
        StreamObserver<StreamingInputCallRequest> requests = async().streamingInputCall(responses);
        ((ClientCallStreamObserver<StreamingInputCallRequest>) requests).cancel("cancel_after_begin", null);
        responses.failed(Status.Code.CANCELLED);
    }

    private void cancelAfterFirstResponse() throws Exception {
        Observer<StreamingOutputCallResponse> responses = new Observer<>();
        StreamObserver<StreamingOutputCallRequest> requests = async().fullDuplexCall(responses);
        requests.onNext(pingRequest(31415, 27182));
        checkZeros(responses.next().getPayload(), 31415);
        ((ClientCallStreamObserver<StreamingOutputCallRequest>) requests).cancel("cancel_after_first_response", null);
        responses.failed(Status.Code.CANCELLED);
    }

    private void statusCodeAndMessage(String message) throws Exception {
        EchoStatus status = EchoStatus.newBuilder().setCode(2).setMessage(message).build();
        try {
            blocking().unaryCall(SimpleRequest.newBuilder().setResponseStatus(status).build());
            throw new AssertionError("UnaryCall with response_status code 2 succeeded");
        } catch (StatusRuntimeException e) {
            checkStatus(e.getStatus(), Status.Code.UNKNOWN, message);
        }
        Observer<StreamingOutputCallResponse> responses = new Observer<>();
        StreamObserver<StreamingOutputCallRequest> requests = async().fullDuplexCall(responses);
        requests.onNext(StreamingOutputCallRequest.newBuilder().setResponseStatus(status).build());
        requests.onCompleted();
        checkStatus(responses.failed(Status.Code.UNKNOWN), Status.Code.UNKNOWN, message);
    }

    private void customMetadata() throws Exception {
        Metadata sent = new Metadata();
        sent.put(EchoMetadata.ECHO_INITIAL, "test_initial_metadata_value");
        sent.put(EchoMetadata.ECHO_TRAILING_BIN, new byte[] {(byte) 0xab, (byte) 0xab, (byte) 0xab});
        AtomicReference<Metadata> headers = new AtomicReference<>();
        AtomicReference<Metadata> trailers = new AtomicReference<>();
        Channel echoing = ClientInterceptors.intercept(channel, MetadataUtils.newAttachHeadersInterceptor(sent),
                MetadataUtils.newCaptureMetadataInterceptor(headers, trailers));
        TestServiceGrpc.newBlockingStub(echoing).withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS)
                .unaryCall(largeRequest());
        checkEcho(headers.get(), trailers.get());
        headers.set(null);
        trailers.set(null);
        Observer<StreamingOutputCallResponse> responses = new Observer<>();
        StreamObserver<StreamingOutputCallRequest> requests = TestServiceGrpc.newStub(echoing)
                .withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS).fullDuplexCall(responses);
        requests.onNext(pingRequest(314159, 271828));
        requests.onCompleted();
        List<StreamingOutputCallResponse> got = responses.completed();
        check(got.size() == 1, "one response, got " + got.size());
        checkEcho(headers.get(), trailers.get());
    }

    private static void checkEcho(Metadata headers, Metadata trailers) {
        check(headers != null && "test_initial_metadata_value".equals(headers.get(EchoMetadata.ECHO_INITIAL)),
                "x-grpc-test-echo-initial echoed in the headers: " + headers);
        byte[] trailing = trailers == null ? null : trailers.get(EchoMetadata.ECHO_TRAILING_BIN);
        check(trailing != null && trailing.length == 3 && (trailing[0] & 0xff) == 0xab && (trailing[2] & 0xff) == 0xab,
                "x-grpc-test-echo-trailing-bin echoed in the trailers: " + trailers);
    }

    private void unimplementedMethod() {
        try {
            blocking().unimplementedCall(Empty.getDefaultInstance());
            throw new AssertionError("UnimplementedCall succeeded");
        } catch (StatusRuntimeException e) {
            checkStatus(e.getStatus(), Status.Code.UNIMPLEMENTED, null);
        }
    }

    private void unimplementedService() {
        try {
            UnimplementedServiceGrpc.newBlockingStub(channel).withDeadlineAfter(DEADLINE_SECONDS, TimeUnit.SECONDS)
                    .unimplementedCall(Empty.getDefaultInstance());
            throw new AssertionError("UnimplementedService.UnimplementedCall succeeded");
        } catch (StatusRuntimeException e) {
            checkStatus(e.getStatus(), Status.Code.UNIMPLEMENTED, null);
        }
    }

    static Payload zeros(int size) {
        return Payload.newBuilder().setBody(ByteString.copyFrom(new byte[size])).build();
    }

    private static void checkZeros(Payload payload, int size) {
        ByteString body = payload.getBody();
        check(body.size() == size, "payload of " + size + " octets, got " + body.size());
        for (int i = 0; i < size; i++) {
            if (body.byteAt(i) != 0) {
                throw new AssertionError("payload octet " + i + " is not zero");
            }
        }
    }

    private static void checkStatus(Status status, Status.Code code, String message) {
        check(status.getCode() == code, "status " + code + ", got " + status);
        if (message != null) {
            check(message.equals(status.getDescription()), "message " + Map.of("expected", message, "got",
                    String.valueOf(status.getDescription())));
        }
    }

    private static void check(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError("expected " + what);
        }
    }

    /** Collects a call's responses and its end, with a deadline on every wait. */
    private static final class Observer<T> implements StreamObserver<T> {
        private final BlockingQueue<T> responses = new LinkedBlockingQueue<>();
        private final CompletableFuture<Status> end = new CompletableFuture<>();

        @Override
        public void onNext(T value) {
            responses.add(value);
        }

        @Override
        public void onError(Throwable t) {
            end.complete(Status.fromThrowable(t));
        }

        @Override
        public void onCompleted() {
            end.complete(Status.OK);
        }

        T next() throws InterruptedException {
            T value = responses.poll(DEADLINE_SECONDS, TimeUnit.SECONDS);
            if (value == null) {
                throw new AssertionError("no response within " + DEADLINE_SECONDS + " s (call ended: " + end + ")");
            }
            return value;
        }

        /** Waits for a successful end; returns the responses not taken by {@link #next}. */
        List<T> completed() throws Exception {
            Status status = end.get(DEADLINE_SECONDS, TimeUnit.SECONDS);
            if (!status.isOk()) {
                throw status.asException();
            }
            List<T> rest = new ArrayList<>();
            responses.drainTo(rest);
            return rest;
        }

        /** Waits for the call to fail with {@code code}; returns its status. */
        Status failed(Status.Code code) throws Exception {
            Status status = end.get(DEADLINE_SECONDS, TimeUnit.SECONDS);
            check(status.getCode() == code, "status " + code + ", got " + status);
            return status;
        }
    }
}
