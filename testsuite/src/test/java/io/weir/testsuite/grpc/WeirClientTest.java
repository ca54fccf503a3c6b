package io.weir.testsuite.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.nio.NioIoHandler;
import io.weir.grpc.EchoService;
import io.weir.grpc.GrpcClient;
import io.weir.grpc.GrpcClientCall;
import io.weir.grpc.GrpcException;
import io.weir.grpc.GrpcStatus;
import io.weir.server.Transports;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Weir's gRPC client ({@link GrpcClient}) against grpc-java 1.85's own server (Netty transport) serving the same
 * raw-bytes echo service as the example: the four kinds of call, a deadline and a cancel seen by grpc-java, the
 * 4 MiB limit, 1,000 calls at once on one connection, an unknown method; the Weir side over NIO and epoll.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WeirClientTest {
    private static final long TIMEOUT_SECONDS = 30;

    /** grpc-java's server with the echo service, and Weir's client connected to it. */
    static final class GrpcJavaServer implements AutoCloseable {
        final Server server;
        final EventLoopGroup group;
        final GrpcClient client;
        final CountDownLatch hangStarted = new CountDownLatch(1);
        final CompletableFuture<Boolean> hangCancelled = new CompletableFuture<>();

        GrpcJavaServer(String transport) throws Exception {
            server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .addService(echoService()).addService(hangService(this)).build().start();
            group = new MultiThreadIoEventLoopGroup(1, transport.equals("epoll") ? EpollIoHandler.newFactory()
                    : NioIoHandler.newFactory());
            client = GrpcClient.connect(group, Transports.socketChannel(group),
                    (InetSocketAddress) server.getListenSockets().get(0));
        }

        @Override
        public void close() throws Exception {
            client.close();
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    /** The example's weir.Echo written with grpc-java. */
    static ServerServiceDefinition echoService() {
        return ServerServiceDefinition.builder(EchoService.SERVICE)
                .addMethod(GrpcJava.UNARY, ServerCalls.asyncUnaryCall((request, answer) -> {
                    answer.onNext(request);
                    answer.onCompleted();
                }))
                .addMethod(GrpcJava.SERVER_STREAM, ServerCalls.asyncServerStreamingCall((request, answer) -> {
                    int count = ByteBuffer.wrap(request).getInt();
                    byte[] payload = Arrays.copyOfRange(request, 4, request.length);
                    for (int i = 0; i < count; i++) {
                        answer.onNext(payload);
                    }
                    answer.onCompleted();
                }))
                .addMethod(GrpcJava.CLIENT_STREAM, ServerCalls.asyncClientStreamingCall(answer ->
                        new StreamObserver<byte[]>() {
                            private final ByteArrayOutputStream joined = new ByteArrayOutputStream();

                            @Override
                            public void onNext(byte[] value) {
                                joined.writeBytes(value);
                            }

                            @Override
                            public void onError(Throwable t) {
                            }

                            @Override
                            public void onCompleted() {
                                answer.onNext(joined.toByteArray());
                                answer.onCompleted();
                            }
                        }))
                .addMethod(GrpcJava.BIDI, ServerCalls.asyncBidiStreamingCall(answer -> new StreamObserver<byte[]>() {
                    @Override
                    public void onNext(byte[] value) {
                        answer.onNext(value);
                    }

                    @Override
                    public void onError(Throwable t) {
                    }

                    @Override
                    public void onCompleted() {
                        answer.onCompleted();
                    }
                }))
                .build();
    }

    /** weir.Test/Hang: answers nothing; tells {@code owner} when it started and when it was cancelled. */
    static ServerServiceDefinition hangService(GrpcJavaServer owner) {
        return ServerServiceDefinition.builder("weir.Test")
                .addMethod(GrpcJava.HANG_BIDI, ServerCalls.asyncBidiStreamingCall(answer -> {
                    ((ServerCallStreamObserver<byte[]>) answer).setOnCancelHandler(
                            () -> owner.hangCancelled.complete(true));
                    owner.hangStarted.countDown();
                    return new StreamObserver<byte[]>() {
                        @Override
                        public void onNext(byte[] value) {
                        }

                        @Override
                        public void onError(Throwable t) {
                        }

                        @Override
                        public void onCompleted() {
                        }
                    };
                }))
                .build();
    }

    private static GrpcStatus statusOf(CompletableFuture<?> call) {
        try {
            call.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return GrpcStatus.OK;
        } catch (ExecutionException e) {
            return ((GrpcException) e.getCause()).status();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void unaryCallIsEchoed(String transport) throws Exception {
        try (GrpcJavaServer s = new GrpcJavaServer(transport)) {
            byte[] request = GrpcJava.pattern(1000);
            assertThat(s.client.unary(EchoService.UNARY, request, TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(request);
            assertThat(s.client.unary(EchoService.UNARY, new byte[0], TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEmpty();
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void serverStreamingCallGetsEveryMessage(String transport) throws Exception {
        try (GrpcJavaServer s = new GrpcJavaServer(transport)) {
            byte[] payload = GrpcJava.pattern(100);
            List<byte[]> answers = s.client.serverStreaming(EchoService.SERVER_STREAM,
                    GrpcJava.streamRequest(500, payload), TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(answers).hasSize(500).allSatisfy(a -> assertThat(a).isEqualTo(payload));
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void clientStreamingCallIsJoined(String transport) throws Exception {
        try (GrpcJavaServer s = new GrpcJavaServer(transport)) {
            List<byte[]> parts = new ArrayList<>();
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (int i = 0; i < 100; i++) {
                byte[] part = GrpcJava.pattern(i * 10);
                parts.add(part);
                expected.writeBytes(part);
            }
            assertThat(s.client.clientStreaming(EchoService.CLIENT_STREAM, parts, TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(expected.toByteArray());
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void bidiCallEchoesEachMessageAsItComes(String transport) throws Exception {
        try (GrpcJavaServer s = new GrpcJavaServer(transport)) {
            // Ping-pong: each message is sent only once the previous one came back.
            CompletableFuture<GrpcStatus> closed = new CompletableFuture<>();
            List<String> received = new ArrayList<>();
            GrpcClientCall[] call = new GrpcClientCall[1];
            call[0] = s.client.newCall(EchoService.BIDI, TIMEOUT_SECONDS, TimeUnit.SECONDS,
                    new GrpcClientCall.Listener() {
                        @Override
                        public void onMessage(ByteBuf message) {
                            received.add(message.toString(StandardCharsets.US_ASCII));
                            message.release();
                            if (received.size() < 100) {
                                call[0].sendMessage(Unpooled.copiedBuffer("m" + received.size(),
                                        StandardCharsets.US_ASCII));
                            } else {
                                call[0].halfClose();
                            }
                        }

                        @Override
                        public void onClose(GrpcStatus status, String description) {
                            closed.complete(status);
                        }
                    });
            call[0].sendMessage(Unpooled.copiedBuffer("m0", StandardCharsets.US_ASCII));
            assertThat(closed.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(GrpcStatus.OK);
            assertThat(received).hasSize(100);
            for (int i = 0; i < 100; i++) {
                assertThat(received.get(i)).isEqualTo("m" + i);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void expiredDeadlineIsSeenByTheServer(String transport) throws Exception {
        try (GrpcJavaServer s = new GrpcJavaServer(transport)) {
            // Warmed up first: on a loaded machine grpc-java's first call may outlast a short deadline.
            assertThat(s.client.unary(EchoService.UNARY, new byte[] {1}, TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).hasSize(1);
            CompletableFuture<GrpcStatus> closed = new CompletableFuture<>();
            GrpcClientCall call = s.client.newCall(GrpcJava.HANG, 1, TimeUnit.SECONDS, new Closed(closed));
            call.sendMessage(Unpooled.wrappedBuffer(new byte[] {1}));
            assertThat(closed.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(GrpcStatus.DEADLINE_EXCEEDED);
            assertThat(s.hangStarted.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(s.hangCancelled.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void cancelIsSeenByTheServer(String transport) throws Exception {
        try (GrpcJavaServer s = new GrpcJavaServer(transport)) {
            CompletableFuture<GrpcStatus> closed = new CompletableFuture<>();
            GrpcClientCall call = s.client.newCall(GrpcJava.HANG, TIMEOUT_SECONDS, TimeUnit.SECONDS,
                    new Closed(closed));
            call.sendMessage(Unpooled.wrappedBuffer(new byte[] {1}));
            assertThat(s.hangStarted.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            call.cancel("the test cancels");
            assertThat(closed.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(GrpcStatus.CANCELLED);
            assertThat(s.hangCancelled.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void fourMebibyteMessageIsEchoedAndOneMoreRefused(String transport) throws Exception {
        try (GrpcJavaServer s = new GrpcJavaServer(transport)) {
            byte[] request = GrpcJava.pattern(GrpcClient.DEFAULT_MAX_MESSAGE_SIZE_BYTES);
            assertThat(s.client.unary(EchoService.UNARY, request, TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(request);
            byte[] over = GrpcJava.pattern(GrpcClient.DEFAULT_MAX_MESSAGE_SIZE_BYTES + 1);
            assertThat(statusOf(s.client.unary(EchoService.UNARY, over, TIMEOUT_SECONDS, TimeUnit.SECONDS)))
                    .isEqualTo(GrpcStatus.RESOURCE_EXHAUSTED);
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void thousandConcurrentCallsOnOneConnectionComplete(String transport) throws Exception {
        try (GrpcJavaServer s = new GrpcJavaServer(transport)) {
            List<CompletableFuture<byte[]>> calls = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                calls.add(s.client.unary(EchoService.UNARY, Integer.toString(i).getBytes(StandardCharsets.US_ASCII),
                        60, TimeUnit.SECONDS));
            }
            for (int i = 0; i < 1000; i++) {
                assertThat(new String(calls.get(i).get(60, TimeUnit.SECONDS), StandardCharsets.US_ASCII))
                        .isEqualTo(Integer.toString(i));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void unknownMethodIsUnimplemented(String transport) throws Exception {
        try (GrpcJavaServer s = new GrpcJavaServer(transport)) {
            assertThat(statusOf(s.client.unary("weir.Echo/NoSuchMethod", new byte[] {1}, TIMEOUT_SECONDS,
                    TimeUnit.SECONDS))).isEqualTo(GrpcStatus.UNIMPLEMENTED);
        }
    }

    /** Records the status a call closed with; drops its messages. */
    static final class Closed implements GrpcClientCall.Listener {
        private final CompletableFuture<GrpcStatus> closed;

        Closed(CompletableFuture<GrpcStatus> closed) {
            this.closed = closed;
        }

        @Override
        public void onMessage(ByteBuf message) {
            message.release();
        }

        @Override
        public void onClose(GrpcStatus status, String description) {
            closed.complete(status);
        }
    }
}
