package io.weir.testsuite.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptors;
import io.grpc.Context;
import io.grpc.ForwardingServerCall;
import io.grpc.Grpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.grpc.GrpcServices;
import io.weir.server.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * grpc-java 1.85's Netty client with generated stubs (grpc-testing-proto's SimpleService, grpc-services' health)
 * against a Weir server serving {@link SimpleServiceImpl} through {@link GrpcServices}: the four kinds of call,
 * deadlines and cancellation as the service's {@link Context} sees them, interceptors and metadata, every status
 * code, gzip both ways, UNIMPLEMENTED, the health service, TLS with ALPN; with the listeners on the event loop
 * ("direct") and on virtual threads ("executor", a pool before JDK 21).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GrpcServicesTest {
    static final Metadata.Key<String> TOKEN = Metadata.Key.of("x-token", Metadata.ASCII_STRING_MARSHALLER);
    static final Metadata.Key<byte[]> BLOB = Metadata.Key.of("x-blob-bin", Metadata.BINARY_BYTE_MARSHALLER);
    static final Metadata.Key<String> SEEN = Metadata.Key.of("x-seen", Metadata.ASCII_STRING_MARSHALLER);
    static final Metadata.Key<String> AUTHORITY = Metadata.Key.of("x-authority", Metadata.ASCII_STRING_MARSHALLER);
    static final Metadata.Key<String> PEER = Metadata.Key.of("x-peer", Metadata.ASCII_STRING_MARSHALLER);
    static final Metadata.Key<String> METHOD = Metadata.Key.of("x-method", Metadata.ASCII_STRING_MARSHALLER);
    static final Metadata.Key<String> TLS = Metadata.Key.of("x-tls", Metadata.ASCII_STRING_MARSHALLER);

    /** Virtual threads where the JDK has them (21+), a small pool otherwise. */
    static ExecutorService serviceExecutor() {
        try {
            return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (ReflectiveOperationException e) {
            return Executors.newFixedThreadPool(4);
        }
    }

    /**
     * Echoes the request's {@code x-token} and {@code x-blob-bin} in the response headers, and the call's authority,
     * peer address, method and TLS protocol ("none" in plaintext) in the trailers.
     */
    static final class EchoMetadata implements ServerInterceptor {
        @Override
        public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(ServerCall<ReqT, RespT> call, Metadata headers,
                ServerCallHandler<ReqT, RespT> next) {
            return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
                @Override
                public void sendHeaders(Metadata responseHeaders) {
                    if (headers.containsKey(TOKEN)) {
                        responseHeaders.put(SEEN, headers.get(TOKEN));
                    }
                    if (headers.containsKey(BLOB)) {
                        responseHeaders.put(BLOB, headers.get(BLOB));
                    }
                    super.sendHeaders(responseHeaders);
                }

                @Override
                public void close(Status status, Metadata trailers) {
                    trailers.put(AUTHORITY, String.valueOf(call.getAuthority()));
                    trailers.put(PEER, String.valueOf(call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR)));
                    trailers.put(METHOD, call.getMethodDescriptor().getFullMethodName());
                    javax.net.ssl.SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
                    trailers.put(TLS, session == null ? "none" : session.getProtocol());
                    super.close(status, trailers);
                }
            }, headers);
        }
    }

    /** A Weir server with the services, and grpc-java's client connected to it over h2c. */
    static final class Fixture implements AutoCloseable {
        final SimpleServiceImpl service = new SimpleServiceImpl();
        final HealthStatusManager health = new HealthStatusManager();
        final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        final ExecutorService executor;
        final HttpServer server;
        final InetSocketAddress address;
        final ManagedChannel channel;

        Fixture(String mode) throws Exception {
            executor = mode.equals("executor") ? serviceExecutor() : null;
            GrpcServices.Builder services = GrpcServices.builder().addService(service)
                    .addService(health.getHealthService()).intercept(new EchoMetadata());
            if (executor != null) {
                services.executor(executor);
            }
            server = new HttpServer(group).grpc(services.build());
            address = (InetSocketAddress) server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .localAddress();
            channel = NettyChannelBuilder.forAddress(address.getHostString(), address.getPort()).usePlaintext()
                    .build();
        }

        SimpleServiceGrpc.SimpleServiceBlockingStub blocking() {
            return SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
        }

        SimpleServiceGrpc.SimpleServiceStub async() {
            return SimpleServiceGrpc.newStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws Exception {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            server.close();
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
            if (executor != null) {
                executor.shutdownNow();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "executor"})
    void unaryCallThroughGeneratedStubs(String mode) throws Exception {
        try (Fixture f = new Fixture(mode)) {
            assertThat(f.blocking().unaryRpc(SimpleServiceImpl.request("hello")).getResponseMessage())
                    .isEqualTo("hello");
            assertThat(SimpleServiceGrpc.newFutureStub(f.channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                    .unaryRpc(SimpleServiceImpl.request("")).get(30, TimeUnit.SECONDS).getResponseMessage())
                    .isEmpty();
            String big = "x".repeat(1 << 20);
            assertThat(f.blocking().unaryRpc(SimpleServiceImpl.request(big)).getResponseMessage()).isEqualTo(big);
            // One loop in the group: direct listeners run on it, executor ones never do.
            io.weir.util.concurrent.EventExecutor loop = f.group.next();
            assertThat(f.service.threads).hasSize(3).allMatch(t -> loop.inEventLoop(t) == mode.equals("direct"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "executor"})
    void streamingCallsThroughGeneratedStubs(String mode) throws Exception {
        try (Fixture f = new Fixture(mode)) {
            Iterator<SimpleResponse> answers = f.blocking().serverStreamingRpc(SimpleServiceImpl.request("count:300"));
            int count = 0;
            while (answers.hasNext()) {
                assertThat(answers.next().getResponseMessage()).isEqualTo(Integer.toString(count++));
            }
            assertThat(count).isEqualTo(300);

            Collected<SimpleResponse> joined = new Collected<>();
            StreamObserver<SimpleRequest> parts = f.async().clientStreamingRpc(joined);
            StringBuilder expected = new StringBuilder();
            for (int i = 0; i < 100; i++) {
                parts.onNext(SimpleServiceImpl.request("p" + i));
                expected.append("p").append(i);
            }
            parts.onCompleted();
            assertThat(joined.done.get(30, TimeUnit.SECONDS)).isNull();
            assertThat(joined.messages).extracting(SimpleResponse::getResponseMessage)
                    .containsExactly(expected.toString());

            Collected<SimpleResponse> echoed = new Collected<>();
            StreamObserver<SimpleRequest> requests = f.async().bidiStreamingRpc(echoed);
            List<String> sent = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                sent.add("m" + i);
                requests.onNext(SimpleServiceImpl.request("m" + i));
            }
            requests.onCompleted();
            assertThat(echoed.done.get(30, TimeUnit.SECONDS)).isNull();
            assertThat(echoed.messages).extracting(SimpleResponse::getResponseMessage)
                    .containsExactlyElementsOf(sent);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "executor"})
    void deadlineReachesTheServiceContext(String mode) throws Exception {
        try (Fixture f = new Fixture(mode)) {
            long left = Long.parseLong(SimpleServiceGrpc.newBlockingStub(f.channel)
                    .withDeadlineAfter(20, TimeUnit.SECONDS).unaryRpc(SimpleServiceImpl.request("deadline"))
                    .getResponseMessage());
            // grpc-timeout carries the client's deadline; the service sees what is left of it.
            assertThat(left).isBetween(1L, 20_000L);
            assertThat(SimpleServiceGrpc.newBlockingStub(f.channel).unaryRpc(SimpleServiceImpl.request("deadline"))
                    .getResponseMessage()).isEqualTo("none");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "executor"})
    void expiredDeadlineCancelsTheServiceContext(String mode) throws Exception {
        try (Fixture f = new Fixture(mode)) {
            f.blocking().unaryRpc(SimpleServiceImpl.request("connect first"));
            assertThatThrownBy(() -> SimpleServiceGrpc.newBlockingStub(f.channel)
                    .withDeadlineAfter(300, TimeUnit.MILLISECONDS).unaryRpc(SimpleServiceImpl.request("hang")))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
            assertThat(f.service.hangContextCancelled.get(30, TimeUnit.SECONDS)).isNotNull();
            f.service.hangCancelHeard.get(30, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "executor"})
    void clientCancelReachesTheServiceContext(String mode) throws Exception {
        try (Fixture f = new Fixture(mode)) {
            ClientCall<SimpleRequest, SimpleResponse> call = f.channel.newCall(
                    SimpleServiceGrpc.getBidiStreamingRpcMethod(), CallOptions.DEFAULT.withDeadlineAfter(30,
                            TimeUnit.SECONDS));
            Collected<SimpleResponse> answers = new Collected<>();
            StreamObserver<SimpleRequest> requests = ClientCalls.asyncBidiStreamingCall(call, answers);
            requests.onNext(SimpleServiceImpl.request("hang"));
            f.service.hangStarted.get(30, TimeUnit.SECONDS);
            call.cancel("the test cancels", null);
            Throwable cause = f.service.hangContextCancelled.get(30, TimeUnit.SECONDS);
            assertThat(Status.fromThrowable(cause).getCode()).isEqualTo(Status.Code.CANCELLED);
            f.service.hangCancelHeard.get(30, TimeUnit.SECONDS);
            assertThat(Status.fromThrowable(answers.done.get(30, TimeUnit.SECONDS)).getCode())
                    .isEqualTo(Status.Code.CANCELLED);
        }
    }

    @Test
    void everyStatusCodeReachesTheClientWithItsMessageAndTrailers() throws Exception {
        try (Fixture f = new Fixture("direct")) {
            String description = "100% wrong: ünïcödé\tand\nnewline";
            for (Status.Code code : Status.Code.values()) {
                if (code == Status.Code.OK) {
                    continue;
                }
                // The server's own CANCELLED is the call's end for the client too: both ways of cancelling covered.
                assertThatThrownBy(() -> f.blocking().unaryRpc(SimpleServiceImpl.request("status:" + code.value()
                        + ":" + description)))
                        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                            assertThat(e.getStatus().getCode()).isEqualTo(code);
                            assertThat(e.getStatus().getDescription()).isEqualTo(description);
                            assertThat(e.getTrailers().get(SimpleServiceImpl.DETAIL))
                                    .containsExactly(0, 1, 2, 0xFF);
                        });
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "executor"})
    void interceptorsSeeAndSetMetadata(String mode) throws Exception {
        try (Fixture f = new Fixture(mode)) {
            Metadata headers = new Metadata();
            headers.put(TOKEN, "secret-1");
            headers.put(BLOB, new byte[] {(byte) 0xFE, 0, 7});
            AtomicReference<Metadata> responseHeaders = new AtomicReference<>();
            AtomicReference<Metadata> trailers = new AtomicReference<>();
            SimpleServiceGrpc.SimpleServiceBlockingStub stub = SimpleServiceGrpc.newBlockingStub(
                    ClientInterceptors.intercept(f.channel, MetadataUtils.newAttachHeadersInterceptor(headers),
                            MetadataUtils.newCaptureMetadataInterceptor(responseHeaders, trailers)))
                    .withDeadlineAfter(30, TimeUnit.SECONDS);
            assertThat(stub.unaryRpc(SimpleServiceImpl.request("m")).getResponseMessage()).isEqualTo("m");
            assertThat(responseHeaders.get().get(SEEN)).isEqualTo("secret-1");
            assertThat(responseHeaders.get().get(BLOB)).containsExactly(0xFE, 0, 7);
            assertThat(trailers.get().get(AUTHORITY)).isEqualTo(f.address.getHostString() + ":"
                    + f.address.getPort());
            assertThat(trailers.get().get(PEER)).contains(f.address.getAddress().getHostAddress());
            assertThat(trailers.get().get(METHOD)).isEqualTo(SimpleServiceGrpc.getUnaryRpcMethod().getFullMethodName());
            assertThat(trailers.get().get(TLS)).isEqualTo("none");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"direct", "executor"})
    void gzipBothWays(String mode) throws Exception {
        try (Fixture f = new Fixture(mode)) {
            String big = "compressible ".repeat(50_000);
            assertThat(f.blocking().withCompression("gzip").unaryRpc(SimpleServiceImpl.request(big))
                    .getResponseMessage()).isEqualTo(big);
            assertThat(f.blocking().unaryRpc(SimpleServiceImpl.request("gzip:100000")).getResponseMessage())
                    .isEqualTo("z".repeat(100_000));
        }
    }

    @Test
    void unknownServiceAndMethodAreUnimplemented() throws Exception {
        try (Fixture f = new Fixture("direct")) {
            for (String name : new String[] {"grpc.testing.SimpleService/NoSuchMethod", "no.Such/Service"}) {
                assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(f.channel,
                        SimpleServiceGrpc.getUnaryRpcMethod().toBuilder().setFullMethodName(name).build(),
                        CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), SimpleServiceImpl.request("x")))
                        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED);
                            assertThat(e.getStatus().getDescription()).contains(name);
                        });
            }
        }
    }

    @Test
    void healthServiceAnswersGrpcJavasHealthStub() throws Exception {
        try (Fixture f = new Fixture("direct")) {
            HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(f.channel)
                    .withDeadlineAfter(30, TimeUnit.SECONDS);
            assertThat(health.check(HealthCheckRequest.getDefaultInstance()).getStatus())
                    .isEqualTo(ServingStatus.SERVING);
            f.health.setStatus(SimpleServiceGrpc.SERVICE_NAME, ServingStatus.NOT_SERVING);
            assertThat(health.check(HealthCheckRequest.newBuilder().setService(SimpleServiceGrpc.SERVICE_NAME)
                    .build()).getStatus()).isEqualTo(ServingStatus.NOT_SERVING);
            assertThatThrownBy(() -> health.check(HealthCheckRequest.newBuilder().setService("unknown").build()))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));
        }
    }

    @Test
    void callsOverTlsWithAlpn() throws Exception {
        try (Fixture f = new Fixture("executor")) {
            ManagedChannel channel = GrpcJava.tlsChannelTo(f.server);
            try {
                AtomicReference<Metadata> trailers = new AtomicReference<>();
                SimpleServiceGrpc.SimpleServiceBlockingStub stub = SimpleServiceGrpc.newBlockingStub(
                        ClientInterceptors.intercept(channel, MetadataUtils.newCaptureMetadataInterceptor(
                                new AtomicReference<>(), trailers)))
                        .withDeadlineAfter(30, TimeUnit.SECONDS);
                assertThat(stub.unaryRpc(SimpleServiceImpl.request("over tls")).getResponseMessage())
                        .isEqualTo("over tls");
                // The service sees the TLS session among the call's attributes.
                assertThat(trailers.get().get(TLS)).startsWith("TLS");
                Iterator<SimpleResponse> answers = stub.serverStreamingRpc(SimpleServiceImpl.request("count:10"));
                int count = 0;
                while (answers.hasNext()) {
                    assertThat(answers.next().getResponseMessage()).isEqualTo(Integer.toString(count++));
                }
                assertThat(count).isEqualTo(10);
            } finally {
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }
}
