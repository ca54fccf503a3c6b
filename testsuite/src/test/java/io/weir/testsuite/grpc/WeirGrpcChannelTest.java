package io.weir.testsuite.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.util.concurrent.ListenableFuture;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptors;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
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
import io.weir.grpc.WeirGrpcChannel;
import io.weir.handler.ssl.InsecureTrustManagerFactory;
import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.handler.ssl.SslContextBuilder;
import io.weir.server.HttpServer;
import io.weir.util.concurrent.Future;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Weir's {@link WeirGrpcChannel} under grpc-java's generated stubs (blocking, async, future) against grpc-java
 * 1.85's own server (NettyServerBuilder, h2c and TLS) serving {@link SimpleServiceImpl}: the four kinds of call,
 * deadlines as {@code grpc-timeout} reaching the server's Context, cancellation reaching it as RST_STREAM, status
 * codes and metadata, gzip both ways, the health service; and against Weir's own server, more calls at once than
 * its stream limit.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WeirGrpcChannelTest {
    private final SimpleServiceImpl service = new SimpleServiceImpl();
    private final HealthStatusManager health = new HealthStatusManager();
    private final FloodService flood = new FloodService();
    private Server server;
    private WeirGrpcChannel channel;

    @BeforeEach
    void start() throws Exception {
        server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .addService(ServerInterceptors.intercept(service, new GrpcServicesTest.EchoMetadata()))
                .addService(health.getHealthService()).addService(flood.definition()).build().start();
        channel = WeirGrpcChannel.forAddress("127.0.0.1", server.getPort()).build();
    }

    @AfterEach
    void stop() throws Exception {
        channel.shutdownNow();
        assertThat(channel.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
    }

    private SimpleServiceGrpc.SimpleServiceBlockingStub blocking() {
        return SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    @Test
    void generatedStubsMakeEveryKindOfCall() throws Exception {
        assertThat(blocking().unaryRpc(SimpleServiceImpl.request("hello")).getResponseMessage()).isEqualTo("hello");
        String big = "b".repeat(1 << 20);
        assertThat(blocking().unaryRpc(SimpleServiceImpl.request(big)).getResponseMessage()).isEqualTo(big);
        assertThat(SimpleServiceGrpc.newFutureStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                .unaryRpc(SimpleServiceImpl.request("future")).get(30, TimeUnit.SECONDS).getResponseMessage())
                .isEqualTo("future");

        Iterator<SimpleResponse> answers = blocking().serverStreamingRpc(SimpleServiceImpl.request("count:300"));
        int count = 0;
        while (answers.hasNext()) {
            assertThat(answers.next().getResponseMessage()).isEqualTo(Integer.toString(count++));
        }
        assertThat(count).isEqualTo(300);

        Collected<SimpleResponse> joined = new Collected<>();
        StreamObserver<SimpleRequest> parts = SimpleServiceGrpc.newStub(channel)
                .withDeadlineAfter(30, TimeUnit.SECONDS).clientStreamingRpc(joined);
        for (int i = 0; i < 50; i++) {
            parts.onNext(SimpleServiceImpl.request(Integer.toString(i % 10)));
        }
        parts.onCompleted();
        assertThat(joined.done.get(30, TimeUnit.SECONDS)).isNull();
        assertThat(joined.messages).extracting(SimpleResponse::getResponseMessage)
                .containsExactly("0123456789".repeat(5));

        Collected<SimpleResponse> echoed = new Collected<>();
        StreamObserver<SimpleRequest> requests = SimpleServiceGrpc.newStub(channel)
                .withDeadlineAfter(30, TimeUnit.SECONDS).bidiStreamingRpc(echoed);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            sent.add("m" + i);
            requests.onNext(SimpleServiceImpl.request("m" + i));
        }
        requests.onCompleted();
        assertThat(echoed.done.get(30, TimeUnit.SECONDS)).isNull();
        assertThat(echoed.messages).extracting(SimpleResponse::getResponseMessage).containsExactlyElementsOf(sent);
    }

    @Test
    void responsesAreReadOnlyAsTheListenerAsks() throws Exception {
        ClientCall<SimpleRequest, SimpleResponse> call = channel.newCall(FloodService.FLOOD,
                CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS));
        AtomicInteger received = new AtomicInteger();
        CompletableFuture<Status> closed = new CompletableFuture<>();
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onMessage(SimpleResponse message) {
                received.incrementAndGet();
            }

            @Override
            public void onClose(Status status, Metadata trailers) {
                closed.complete(status);
            }
        }, new Metadata());
        call.request(1);
        call.sendMessage(SimpleServiceImpl.request("count:3000"));
        call.halfClose();
        // The server stops when the stream's window is spent: the listener has had only what it asked for.
        assertThat(flood.stalled.get(30, TimeUnit.SECONDS)).isLessThan(3000);
        assertThat(received.get()).isLessThanOrEqualTo(1);
        assertThat(closed).isNotDone();
        call.request(Integer.MAX_VALUE);
        assertThat(closed.get(30, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.OK);
        assertThat(received).hasValue(3000);
    }

    @Test
    void deadlineReachesTheServerAsGrpcTimeout() {
        long left = Long.parseLong(SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(20, TimeUnit.SECONDS)
                .unaryRpc(SimpleServiceImpl.request("deadline")).getResponseMessage());
        assertThat(left).isBetween(1L, 20_000L);
        assertThat(SimpleServiceGrpc.newBlockingStub(channel).unaryRpc(SimpleServiceImpl.request("deadline"))
                .getResponseMessage()).isEqualTo("none");
    }

    @Test
    void expiredDeadlineEndsTheCallOnBothSides() throws Exception {
        blocking().unaryRpc(SimpleServiceImpl.request("connect first"));
        assertThatThrownBy(() -> SimpleServiceGrpc.newBlockingStub(channel)
                .withDeadlineAfter(300, TimeUnit.MILLISECONDS).unaryRpc(SimpleServiceImpl.request("hang")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
        assertThat(service.hangContextCancelled.get(30, TimeUnit.SECONDS)).isNotNull();
    }

    @Test
    void callPastItsDeadlineOrCancelledBeforeStartEndsWithoutAStream() throws Exception {
        assertThatThrownBy(() -> SimpleServiceGrpc.newBlockingStub(channel)
                .withDeadline(io.grpc.Deadline.after(-1, TimeUnit.SECONDS)).unaryRpc(SimpleServiceImpl.request("x")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
        ClientCall<SimpleRequest, SimpleResponse> call = channel.newCall(SimpleServiceGrpc.getUnaryRpcMethod(),
                CallOptions.DEFAULT);
        call.cancel("before start", null);
        CompletableFuture<Status> closed = new CompletableFuture<>();
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onClose(Status status, Metadata trailers) {
                closed.complete(status);
            }
        }, new Metadata());
        assertThat(closed.get(30, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.CANCELLED);
        assertThat(service.calls).hasValue(0);
    }

    @Test
    void cancelReachesTheServer() throws Exception {
        ClientCall<SimpleRequest, SimpleResponse> call = channel.newCall(
                SimpleServiceGrpc.getBidiStreamingRpcMethod(), CallOptions.DEFAULT.withDeadlineAfter(30,
                        TimeUnit.SECONDS));
        Collected<SimpleResponse> answers = new Collected<>();
        StreamObserver<SimpleRequest> requests = ClientCalls.asyncBidiStreamingCall(call, answers);
        requests.onNext(SimpleServiceImpl.request("hang"));
        service.hangStarted.get(30, TimeUnit.SECONDS);
        call.cancel("the test cancels", null);
        assertThat(Status.fromThrowable(service.hangContextCancelled.get(30, TimeUnit.SECONDS)).getCode())
                .isEqualTo(Status.Code.CANCELLED);
        service.hangCancelHeard.get(30, TimeUnit.SECONDS);
        assertThat(Status.fromThrowable(answers.done.get(30, TimeUnit.SECONDS)).getCode())
                .isEqualTo(Status.Code.CANCELLED);
    }

    @Test
    void shutdownNowEndsCallsInFlightWithoutWaitingForThem() throws Exception {
        Collected<SimpleResponse> answers = new Collected<>();
        StreamObserver<SimpleRequest> requests = SimpleServiceGrpc.newStub(channel)
                .withDeadlineAfter(60, TimeUnit.SECONDS).bidiStreamingRpc(answers);
        requests.onNext(SimpleServiceImpl.request("hang"));
        service.hangStarted.get(30, TimeUnit.SECONDS);
        channel.shutdownNow();
        // Well inside the codec's 30 s graceful close, which would wait for the open stream.
        assertThat(channel.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(Status.fromThrowable(answers.done.get(30, TimeUnit.SECONDS)).getCode())
                .isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(service.hangContextCancelled.get(30, TimeUnit.SECONDS)).isNotNull();
        assertThatThrownBy(() -> blocking().unaryRpc(SimpleServiceImpl.request("after")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    }

    @Test
    void shutdownNowClosesAConnectionDrainingAfterGoaway() throws Exception {
        try (WeirServer weir = startWeir()) {
            Collected<SimpleResponse> answers = new Collected<>();
            StreamObserver<SimpleRequest> requests = SimpleServiceGrpc.newStub(weir.channel())
                    .withDeadlineAfter(60, TimeUnit.SECONDS).bidiStreamingRpc(answers);
            requests.onNext(SimpleServiceImpl.request("hang"));
            service.hangStarted.get(30, TimeUnit.SECONDS);
            // The GOAWAY leaves the connection draining, no longer the channel's current one.
            Future<Integer> drained = weir.server().drain(30, TimeUnit.SECONDS);
            requests.onNext(SimpleServiceImpl.request("still open"));
            assertThat(answers.next().getResponseMessage()).isEqualTo("still open");
            weir.channel().shutdownNow();
            assertThat(weir.channel().awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            assertThat(Status.fromThrowable(answers.done.get(30, TimeUnit.SECONDS)).getCode())
                    .isEqualTo(Status.Code.UNAVAILABLE);
            assertThat(drained.get(30, TimeUnit.SECONDS)).isZero();
        }
    }

    @Test
    void statusCodesMessagesAndMetadataArrive() {
        String description = "100% wrong: ünïcödé";
        for (Status.Code code : new Status.Code[] {Status.Code.NOT_FOUND, Status.Code.INTERNAL,
            Status.Code.UNAUTHENTICATED, Status.Code.RESOURCE_EXHAUSTED}) {
            assertThatThrownBy(() -> blocking().unaryRpc(SimpleServiceImpl.request("status:" + code.value() + ":"
                    + description)))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                        assertThat(e.getStatus().getCode()).isEqualTo(code);
                        assertThat(e.getStatus().getDescription()).isEqualTo(description);
                        assertThat(e.getTrailers().get(SimpleServiceImpl.DETAIL)).containsExactly(0, 1, 2, 0xFF);
                    });
        }
        Metadata headers = new Metadata();
        headers.put(GrpcServicesTest.TOKEN, "t-1");
        headers.put(GrpcServicesTest.BLOB, new byte[] {9, 8, 7, 6});
        AtomicReference<Metadata> responseHeaders = new AtomicReference<>();
        AtomicReference<Metadata> trailers = new AtomicReference<>();
        assertThat(SimpleServiceGrpc.newBlockingStub(ClientInterceptors.intercept(channel,
                MetadataUtils.newAttachHeadersInterceptor(headers),
                MetadataUtils.newCaptureMetadataInterceptor(responseHeaders, trailers)))
                .withDeadlineAfter(30, TimeUnit.SECONDS).unaryRpc(SimpleServiceImpl.request("m"))
                .getResponseMessage()).isEqualTo("m");
        assertThat(responseHeaders.get().get(GrpcServicesTest.SEEN)).isEqualTo("t-1");
        assertThat(responseHeaders.get().get(GrpcServicesTest.BLOB)).containsExactly(9, 8, 7, 6);
        assertThat(trailers.get().get(GrpcServicesTest.AUTHORITY)).isEqualTo("127.0.0.1:" + server.getPort());
    }

    @Test
    void gzipBothWays() {
        String big = "compressible ".repeat(50_000);
        assertThat(blocking().withCompression("gzip").unaryRpc(SimpleServiceImpl.request(big)).getResponseMessage())
                .isEqualTo(big);
        assertThat(blocking().unaryRpc(SimpleServiceImpl.request("gzip:100000")).getResponseMessage())
                .isEqualTo("z".repeat(100_000));
    }

    @Test
    void responseLargerThanTheLimitIsResourceExhausted() throws Exception {
        WeirGrpcChannel small = WeirGrpcChannel.forAddress("127.0.0.1", server.getPort())
                .maxInboundMessageSize(1024).build();
        try {
            SimpleServiceGrpc.SimpleServiceBlockingStub stub = SimpleServiceGrpc.newBlockingStub(small)
                    .withDeadlineAfter(30, TimeUnit.SECONDS);
            assertThat(stub.unaryRpc(SimpleServiceImpl.request("fits")).getResponseMessage()).isEqualTo("fits");
            // As sent, and (the second) once inflated: gzip of 100,000 'z's is a few hundred bytes.
            for (String request : new String[] {"x".repeat(2000), "gzip:100000"}) {
                assertThatThrownBy(() -> stub.unaryRpc(SimpleServiceImpl.request(request)))
                        .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                                assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
            }
            assertThat(stub.unaryRpc(SimpleServiceImpl.request("still fine")).getResponseMessage())
                    .isEqualTo("still fine");
        } finally {
            small.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void healthServiceIsChecked() {
        assertThat(HealthGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                .check(HealthCheckRequest.getDefaultInstance()).getStatus()).isEqualTo(ServingStatus.SERVING);
    }

    @Test
    void unknownMethodIsUnimplemented() {
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(channel,
                SimpleServiceGrpc.getUnaryRpcMethod().toBuilder().setFullMethodName("no.Such/Method").build(),
                CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS), SimpleServiceImpl.request("x")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED));
    }

    @Test
    void callsOverTlsWithAlpn() throws Exception {
        SelfSignedCertificate cert = SelfSignedCertificate.create("localhost");
        Server tlsServer = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .sslContext(GrpcSslContexts.configure(io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder
                        .forServer(cert.privateKey(), cert.certificate())).build())
                .addService(service).build().start();
        WeirGrpcChannel tls = WeirGrpcChannel.forAddress("127.0.0.1", tlsServer.getPort())
                .tls(SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE)
                        .applicationProtocols("h2").build())
                .overrideAuthority("localhost").build();
        try {
            assertThat(SimpleServiceGrpc.newBlockingStub(tls).withDeadlineAfter(30, TimeUnit.SECONDS)
                    .unaryRpc(SimpleServiceImpl.request("over tls")).getResponseMessage()).isEqualTo("over tls");
        } finally {
            tls.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            tlsServer.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void afterGoawayCallsInFlightFinishAndNewCallsUseANewConnection() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        GrpcServices services = GrpcServices.builder().addService(service).build();
        HttpServer first = new HttpServer(group).grpc(services);
        HttpServer second = new HttpServer(group).grpc(services);
        WeirGrpcChannel toWeir = null;
        try {
            InetSocketAddress address = (InetSocketAddress) first.start(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).localAddress();
            toWeir = WeirGrpcChannel.forAddress(address.getHostString(), address.getPort()).build();
            Collected<SimpleResponse> echoes = new Collected<>();
            StreamObserver<SimpleRequest> inFlight = SimpleServiceGrpc.newStub(toWeir)
                    .withDeadlineAfter(30, TimeUnit.SECONDS).bidiStreamingRpc(echoes);
            inFlight.onNext(SimpleServiceImpl.request("before"));
            assertThat(echoes.next().getResponseMessage()).isEqualTo("before");
            // GOAWAY, and the port no longer listens.
            Future<Integer> drained = first.drain(30, TimeUnit.SECONDS);
            inFlight.onNext(SimpleServiceImpl.request("after"));
            assertThat(echoes.next().getResponseMessage()).isEqualTo("after");
            inFlight.onCompleted();
            assertThat(echoes.done.get(30, TimeUnit.SECONDS)).isNull();
            assertThat(drained.get(30, TimeUnit.SECONDS)).isZero();
            SimpleServiceGrpc.SimpleServiceBlockingStub stub = SimpleServiceGrpc.newBlockingStub(toWeir);
            assertThatThrownBy(() -> stub.withDeadlineAfter(30, TimeUnit.SECONDS)
                    .unaryRpc(SimpleServiceImpl.request("nobody listens")))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e ->
                            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
            second.start(address);
            assertThat(stub.withDeadlineAfter(30, TimeUnit.SECONDS).unaryRpc(SimpleServiceImpl.request("again"))
                    .getResponseMessage()).isEqualTo("again");
        } finally {
            if (toWeir != null) {
                toWeir.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
            first.close();
            second.close();
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void moreCallsThanWeirsStreamLimitWaitForStreams() throws Exception {
        try (WeirServer weir = startWeir()) {
            // The server allows 100 streams at once: the rest wait for a free one on the same connection.
            List<ListenableFuture<SimpleResponse>> calls = new ArrayList<>();
            SimpleServiceGrpc.SimpleServiceFutureStub stub = SimpleServiceGrpc.newFutureStub(weir.channel())
                    .withDeadlineAfter(60, TimeUnit.SECONDS);
            for (int i = 0; i < 500; i++) {
                calls.add(stub.unaryRpc(SimpleServiceImpl.request(Integer.toString(i))));
            }
            for (int i = 0; i < 500; i++) {
                assertThat(calls.get(i).get(60, TimeUnit.SECONDS).getResponseMessage())
                        .isEqualTo(Integer.toString(i));
            }
        }
    }

    /** Weir's own server serving {@link #service} on one NIO loop, and a Weir channel to it. */
    private WeirServer startWeir() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        HttpServer server = new HttpServer(group).grpc(GrpcServices.builder().addService(service).build());
        try {
            InetSocketAddress address = (InetSocketAddress) server.start(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).localAddress();
            return new WeirServer(group, server,
                    WeirGrpcChannel.forAddress(address.getHostString(), address.getPort()).build());
        } catch (Exception | Error e) {
            server.close();
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** What {@link #startWeir} started; closed channel first, then server, then its loop. */
    private record WeirServer(EventLoopGroup group, HttpServer server, WeirGrpcChannel channel)
            implements AutoCloseable {
        @Override
        public void close() throws Exception {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            server.close();
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }
}
