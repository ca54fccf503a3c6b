package io.weir.testsuite.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.weir.buffer.ByteBuf;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.nio.NioIoHandler;
import io.weir.grpc.EchoService;
import io.weir.grpc.GrpcCallListener;
import io.weir.grpc.GrpcRoute;
import io.weir.grpc.GrpcStatus;
import io.weir.server.HttpServer;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * grpc-java 1.85's client (Netty transport, h2c) against Weir's example server and its gRPC route: the four kinds
 * of call on {@link EchoService}, deadlines and cancels seen on both sides, the 4 MiB message limit, 1,000 calls at
 * once on one connection, an unknown method, and calls over TLS (ALPN h2); over NIO and epoll.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GrpcJavaClientTest {

    /** The example server with {@link EchoService} and a method that holds its calls until they are cancelled. */
    static final class WeirServer implements AutoCloseable {
        final EventLoopGroup group;
        final HttpServer server;
        final ManagedChannel channel;
        /** How each held call ended, as its listener heard it. */
        final CompletableFuture<GrpcStatus> hangEnded = new CompletableFuture<>();
        /** Counted down when a held call received its first message. */
        final CountDownLatch hangReceived = new CountDownLatch(1);

        WeirServer(String transport) throws Exception {
            group = new MultiThreadIoEventLoopGroup(2, transport.equals("epoll") ? EpollIoHandler.newFactory()
                    : NioIoHandler.newFactory());
            GrpcRoute route = EchoService.register(new GrpcRoute()).bidiStreaming(GrpcJava.HANG,
                    call -> new GrpcCallListener() {
                        @Override
                        public void onMessage(ByteBuf message) {
                            message.release();
                            hangReceived.countDown();
                        }

                        @Override
                        public void onCancel(GrpcStatus reason) {
                            hangEnded.complete(reason);
                        }
                    });
            server = new HttpServer(group).grpc(route);
            InetSocketAddress address = (InetSocketAddress) server.start(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).localAddress();
            channel = NettyChannelBuilder.forAddress(address.getHostString(), address.getPort()).usePlaintext()
                    .build();
        }

        @Override
        public void close() throws Exception {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            server.close();
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    private static CallOptions options() {
        return CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void unaryCallIsEchoed(String transport) throws Exception {
        try (WeirServer s = new WeirServer(transport)) {
            byte[] request = GrpcJava.pattern(1000);
            assertThat(ClientCalls.blockingUnaryCall(s.channel, GrpcJava.UNARY, options(), request))
                    .isEqualTo(request);
            assertThat(ClientCalls.blockingUnaryCall(s.channel, GrpcJava.UNARY, options(), new byte[0])).isEmpty();
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void serverStreamingCallAnswersEveryMessage(String transport) throws Exception {
        try (WeirServer s = new WeirServer(transport)) {
            byte[] payload = GrpcJava.pattern(100);
            Iterator<byte[]> answers = ClientCalls.blockingServerStreamingCall(s.channel, GrpcJava.SERVER_STREAM,
                    options(), GrpcJava.streamRequest(500, payload));
            int count = 0;
            while (answers.hasNext()) {
                assertThat(answers.next()).isEqualTo(payload);
                count++;
            }
            assertThat(count).isEqualTo(500);
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void clientStreamingCallJoinsTheRequests(String transport) throws Exception {
        try (WeirServer s = new WeirServer(transport)) {
            Collected<byte[]> answer = new Collected<>();
            StreamObserver<byte[]> requests = ClientCalls.asyncClientStreamingCall(
                    s.channel.newCall(GrpcJava.CLIENT_STREAM, options()), answer);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (int i = 0; i < 100; i++) {
                byte[] part = GrpcJava.pattern(i * 10);
                expected.write(part);
                requests.onNext(part);
            }
            requests.onCompleted();
            assertThat(answer.done.get(30, TimeUnit.SECONDS)).isNull();
            assertThat(answer.messages).hasSize(1);
            assertThat(answer.next()).isEqualTo(expected.toByteArray());
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void bidiCallEchoesEachMessage(String transport) throws Exception {
        try (WeirServer s = new WeirServer(transport)) {
            Collected<byte[]> answers = new Collected<>();
            StreamObserver<byte[]> requests = ClientCalls.asyncBidiStreamingCall(
                    s.channel.newCall(GrpcJava.BIDI, options()), answers);
            List<byte[]> sent = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                byte[] part = GrpcJava.pattern(i + 1);
                sent.add(part);
                requests.onNext(part);
            }
            requests.onCompleted();
            assertThat(answers.done.get(30, TimeUnit.SECONDS)).isNull();
            assertThat(answers.messages).hasSize(200);
            for (int i = 0; i < 200; i++) {
                assertThat(answers.next()).isEqualTo(sent.get(i));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void expiredDeadlineEndsTheCallOnBothSides(String transport) throws Exception {
        try (WeirServer s = new WeirServer(transport)) {
            // Connected first: on a loaded machine the first call's connection setup alone may outlast the deadline.
            assertThat(ClientCalls.blockingUnaryCall(s.channel, GrpcJava.UNARY, options(), new byte[] {1})).hasSize(1);
            assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(s.channel, GrpcJava.HANG_UNARY,
                    CallOptions.DEFAULT.withDeadlineAfter(300, TimeUnit.MILLISECONDS), new byte[] {1}))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
            // Whichever fired first on the server: its own deadline or the client's RST_STREAM at its deadline.
            assertThat(s.hangEnded.get(30, TimeUnit.SECONDS))
                    .isIn(GrpcStatus.DEADLINE_EXCEEDED, GrpcStatus.CANCELLED);
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void clientCancelReachesTheServer(String transport) throws Exception {
        try (WeirServer s = new WeirServer(transport)) {
            ClientCall<byte[], byte[]> call = s.channel.newCall(GrpcJava.HANG_BIDI, options());
            Collected<byte[]> answers = new Collected<>();
            StreamObserver<byte[]> requests = ClientCalls.asyncBidiStreamingCall(call, answers);
            requests.onNext(new byte[] {42});
            assertThat(s.hangReceived.await(30, TimeUnit.SECONDS)).isTrue();
            call.cancel("the test cancels", null);
            assertThat(s.hangEnded.get(30, TimeUnit.SECONDS)).isEqualTo(GrpcStatus.CANCELLED);
            assertThat(answers.done.get(30, TimeUnit.SECONDS)).isInstanceOfSatisfying(StatusRuntimeException.class,
                    e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.CANCELLED));
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void fourMebibyteMessageIsEchoed(String transport) throws Exception {
        try (WeirServer s = new WeirServer(transport)) {
            byte[] request = GrpcJava.pattern(GrpcRoute.DEFAULT_MAX_MESSAGE_SIZE_BYTES);
            assertThat(ClientCalls.blockingUnaryCall(s.channel, GrpcJava.UNARY, options(), request))
                    .isEqualTo(request);
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void messageOverTheLimitIsResourceExhausted(String transport) throws Exception {
        try (WeirServer s = new WeirServer(transport)) {
            byte[] request = GrpcJava.pattern(GrpcRoute.DEFAULT_MAX_MESSAGE_SIZE_BYTES + 1);
            assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(s.channel, GrpcJava.UNARY, options(), request))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
            // The connection stays usable.
            assertThat(ClientCalls.blockingUnaryCall(s.channel, GrpcJava.UNARY, options(), new byte[] {7}))
                    .containsExactly(7);
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void thousandConcurrentCallsOnOneConnectionComplete(String transport) throws Exception {
        try (WeirServer s = new WeirServer(transport)) {
            // The server allows 100 streams at once: grpc-java queues the rest on the same connection.
            List<com.google.common.util.concurrent.ListenableFuture<byte[]>> calls = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                calls.add(ClientCalls.futureUnaryCall(s.channel.newCall(GrpcJava.UNARY, options()),
                        Integer.toString(i).getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
            }
            for (int i = 0; i < 1000; i++) {
                assertThat(new String(calls.get(i).get(60, TimeUnit.SECONDS),
                        java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo(Integer.toString(i));
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void unknownMethodIsUnimplemented(String transport) throws Exception {
        try (WeirServer s = new WeirServer(transport)) {
            assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(s.channel, GrpcJava.UNKNOWN, options(),
                    new byte[] {1}))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED);
                        assertThat(e.getStatus().getDescription()).contains("weir.Echo/NoSuchMethod");
                    });
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void callsOverTlsWithAlpnH2(String transport) throws Exception {
        try (WeirServer s = new WeirServer(transport)) {
            // The example's HTTPS port: ALPN picks h2, and the same gRPC route serves behind TLS.
            ManagedChannel channel = GrpcJava.tlsChannelTo(s.server);
            try {
                byte[] request = GrpcJava.pattern(100_000);
                assertThat(ClientCalls.blockingUnaryCall(channel, GrpcJava.UNARY, options(), request))
                        .isEqualTo(request);
                Iterator<byte[]> answers = ClientCalls.blockingServerStreamingCall(channel, GrpcJava.SERVER_STREAM,
                        options(), GrpcJava.streamRequest(10, new byte[] {5}));
                int count = 0;
                while (answers.hasNext()) {
                    assertThat(answers.next()).containsExactly(5);
                    count++;
                }
                assertThat(count).isEqualTo(10);
            } finally {
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }
}
