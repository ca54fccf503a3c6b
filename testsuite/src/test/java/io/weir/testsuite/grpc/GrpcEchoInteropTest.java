package io.weir.testsuite.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.util.concurrent.ListenableFuture;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.nio.NioIoHandler;
import io.weir.grpc.GrpcServices;
import io.weir.grpc.WeirGrpcChannel;
import io.weir.server.GrpcEchoService;
import io.weir.server.HttpServer;
import io.weir.server.Transports;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link GrpcEchoService} (the example server's service) called through a grpc-java {@code Channel} between every
 * pair that includes Weir: grpc-java 1.85's Netty client against Weir's example server, Weir's
 * {@link WeirGrpcChannel} against grpc-java's Netty server serving the same definition, and Weir against Weir. The
 * four kinds of call, deadlines and cancels seen on both sides, the 4 MiB limit both ways, 1,000 calls at once on
 * one connection (past Weir's 100-stream limit), an unknown method, a server stream of two billion messages paced
 * by the client, and the client's own inbound limit; the Weir side over NIO and epoll.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GrpcEchoInteropTest {
    private static final long TIMEOUT_SECONDS = 30;

    static Stream<Arguments> pairs() {
        List<Arguments> pairs = new ArrayList<>();
        for (String transport : GrpcJava.transports()) {
            pairs.add(Arguments.of("grpc-java", "weir", transport));
            pairs.add(Arguments.of("weir", "grpc-java", transport));
            pairs.add(Arguments.of("weir", "weir", transport));
        }
        return pairs.stream();
    }

    /** A server with the echo and hang services, and a client connected to it. */
    static final class Pair implements AutoCloseable {
        final HangService hang = new HangService();
        final EventLoopGroup group;
        final boolean weirClient;
        final HttpServer weirServer;
        final Server grpcJavaServer;
        final InetSocketAddress address;
        final ManagedChannel channel;

        Pair(String client, String server, String transport) throws Exception {
            group = new MultiThreadIoEventLoopGroup(2, transport.equals("epoll") ? EpollIoHandler.newFactory()
                    : NioIoHandler.newFactory());
            weirClient = client.equals("weir");
            InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
            if (server.equals("weir")) {
                grpcJavaServer = null;
                weirServer = new HttpServer(group).grpc(GrpcServices.builder()
                        .addService(GrpcEchoService.definition()).addService(hang.definition()).build());
                address = (InetSocketAddress) weirServer.start(any).localAddress();
            } else {
                weirServer = null;
                grpcJavaServer = NettyServerBuilder.forAddress(any).addService(GrpcEchoService.definition())
                        .addService(hang.definition()).build().start();
                address = (InetSocketAddress) grpcJavaServer.getListenSockets().get(0);
            }
            channel = newChannel(GrpcServices.DEFAULT_MAX_INBOUND_MESSAGE_SIZE_BYTES);
        }

        /** Another client to the server, accepting answers of at most {@code maxInbound} octets; closed by the caller. */
        ManagedChannel newChannel(int maxInbound) {
            if (weirClient) {
                return WeirGrpcChannel.forAddress(address.getHostString(), address.getPort()).eventLoopGroup(group)
                        .channelType(Transports.socketChannel(group)).maxInboundMessageSize(maxInbound).build();
            }
            return NettyChannelBuilder.forAddress(address.getHostString(), address.getPort()).usePlaintext()
                    .maxInboundMessageSize(maxInbound).build();
        }

        @Override
        public void close() throws Exception {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            if (weirServer != null) {
                weirServer.close();
            } else {
                grpcJavaServer.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    private static CallOptions options() {
        return CallOptions.DEFAULT.withDeadlineAfter(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private static byte[] unary(ManagedChannel channel, byte[] request) {
        return ClientCalls.blockingUnaryCall(channel, GrpcEchoService.UNARY, options(), request);
    }

    private static void assertFailsWith(Runnable call, Status.Code code) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(StatusRuntimeException.class,
                e -> assertThat(e.getStatus().getCode()).isEqualTo(code));
    }

    @ParameterizedTest(name = "{0} client, {1} server, {2}")
    @MethodSource("pairs")
    void unaryCallIsEchoed(String client, String server, String transport) throws Exception {
        try (Pair p = new Pair(client, server, transport)) {
            byte[] request = GrpcJava.pattern(1000);
            assertThat(unary(p.channel, request)).isEqualTo(request);
            assertThat(unary(p.channel, new byte[0])).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0} client, {1} server, {2}")
    @MethodSource("pairs")
    void serverStreamingCallAnswersEveryMessage(String client, String server, String transport) throws Exception {
        try (Pair p = new Pair(client, server, transport)) {
            byte[] payload = GrpcJava.pattern(100);
            Iterator<byte[]> answers = ClientCalls.blockingServerStreamingCall(p.channel,
                    GrpcEchoService.SERVER_STREAM, options(), GrpcJava.streamRequest(500, payload));
            int count = 0;
            while (answers.hasNext()) {
                assertThat(answers.next()).isEqualTo(payload);
                count++;
            }
            assertThat(count).isEqualTo(500);
        }
    }

    @ParameterizedTest(name = "{0} client, {1} server, {2}")
    @MethodSource("pairs")
    void clientStreamingCallJoinsTheRequests(String client, String server, String transport) throws Exception {
        try (Pair p = new Pair(client, server, transport)) {
            Collected<byte[]> answer = new Collected<>();
            StreamObserver<byte[]> requests = ClientCalls.asyncClientStreamingCall(
                    p.channel.newCall(GrpcEchoService.CLIENT_STREAM, options()), answer);
            ByteArrayOutputStream expected = new ByteArrayOutputStream();
            for (int i = 0; i < 100; i++) {
                byte[] part = GrpcJava.pattern(i * 10);
                expected.write(part);
                requests.onNext(part);
            }
            requests.onCompleted();
            assertThat(answer.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isNull();
            assertThat(answer.messages).hasSize(1);
            assertThat(answer.next()).isEqualTo(expected.toByteArray());
        }
    }

    @ParameterizedTest(name = "{0} client, {1} server, {2}")
    @MethodSource("pairs")
    void bidiCallEchoesEachMessageAsItComes(String client, String server, String transport) throws Exception {
        try (Pair p = new Pair(client, server, transport)) {
            // Ping-pong: each message is sent only once the previous one came back.
            Collected<byte[]> answers = new Collected<>();
            StreamObserver<byte[]> requests = ClientCalls.asyncBidiStreamingCall(
                    p.channel.newCall(GrpcEchoService.BIDI, options()), answers);
            for (int i = 0; i < 100; i++) {
                byte[] ping = ("m" + i).getBytes(StandardCharsets.US_ASCII);
                requests.onNext(ping);
                assertThat(answers.next()).isEqualTo(ping);
            }
            requests.onCompleted();
            assertThat(answers.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isNull();
            assertThat(answers.messages).isEmpty();
        }
    }

    @ParameterizedTest(name = "{0} client, {1} server, {2}")
    @MethodSource("pairs")
    void expiredDeadlineEndsTheCallOnBothSides(String client, String server, String transport) throws Exception {
        try (Pair p = new Pair(client, server, transport)) {
            // Connected first: on a loaded machine the first call's connection setup alone may outlast the deadline.
            assertThat(unary(p.channel, new byte[] {1})).hasSize(1);
            assertFailsWith(() -> ClientCalls.blockingUnaryCall(p.channel, HangService.UNARY,
                    CallOptions.DEFAULT.withDeadlineAfter(500, TimeUnit.MILLISECONDS), new byte[] {1}),
                    Status.Code.DEADLINE_EXCEEDED);
            assertThat(p.hang.started.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            // Whichever fired first on the server: its own deadline or the client's RST_STREAM at its deadline.
            assertThat(p.hang.ended.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isIn(Status.Code.DEADLINE_EXCEEDED, Status.Code.CANCELLED);
        }
    }

    @ParameterizedTest(name = "{0} client, {1} server, {2}")
    @MethodSource("pairs")
    void clientCancelReachesTheServer(String client, String server, String transport) throws Exception {
        try (Pair p = new Pair(client, server, transport)) {
            ClientCall<byte[], byte[]> call = p.channel.newCall(HangService.BIDI, options());
            Collected<byte[]> answers = new Collected<>();
            StreamObserver<byte[]> requests = ClientCalls.asyncBidiStreamingCall(call, answers);
            requests.onNext(new byte[] {42});
            assertThat(p.hang.received.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            call.cancel("the test cancels", null);
            assertThat(p.hang.ended.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(Status.Code.CANCELLED);
            assertThat(answers.done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isInstanceOfSatisfying(
                    StatusRuntimeException.class, e -> assertThat(e.getStatus().getCode())
                            .isEqualTo(Status.Code.CANCELLED));
        }
    }

    @ParameterizedTest(name = "{0} client, {1} server, {2}")
    @MethodSource("pairs")
    void fourMebibyteMessageIsEchoedAndOneMoreRefused(String client, String server, String transport)
            throws Exception {
        try (Pair p = new Pair(client, server, transport)) {
            byte[] request = GrpcJava.pattern(GrpcServices.DEFAULT_MAX_INBOUND_MESSAGE_SIZE_BYTES);
            assertThat(unary(p.channel, request)).isEqualTo(request);
            byte[] over = GrpcJava.pattern(GrpcServices.DEFAULT_MAX_INBOUND_MESSAGE_SIZE_BYTES + 1);
            assertFailsWith(() -> unary(p.channel, over), Status.Code.RESOURCE_EXHAUSTED);
            // The connection stays usable.
            assertThat(unary(p.channel, new byte[] {7})).containsExactly(7);
        }
    }

    @ParameterizedTest(name = "{0} client, {1} server, {2}")
    @MethodSource("pairs")
    void thousandConcurrentCallsOnOneConnectionComplete(String client, String server, String transport)
            throws Exception {
        try (Pair p = new Pair(client, server, transport)) {
            // Weir's server allows 100 streams at once: the client queues the rest on the same connection.
            List<ListenableFuture<byte[]>> calls = new ArrayList<>();
            for (int i = 0; i < 1000; i++) {
                calls.add(ClientCalls.futureUnaryCall(p.channel.newCall(GrpcEchoService.UNARY, options()),
                        Integer.toString(i).getBytes(StandardCharsets.US_ASCII)));
            }
            for (int i = 0; i < 1000; i++) {
                assertThat(new String(calls.get(i).get(60, TimeUnit.SECONDS), StandardCharsets.US_ASCII))
                        .isEqualTo(Integer.toString(i));
            }
        }
    }

    @ParameterizedTest(name = "{0} client, {1} server, {2}")
    @MethodSource("pairs")
    void unknownMethodIsUnimplemented(String client, String server, String transport) throws Exception {
        try (Pair p = new Pair(client, server, transport)) {
            assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(p.channel, GrpcJava.UNKNOWN, options(),
                    new byte[] {1}))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED);
                        assertThat(e.getStatus().getDescription()).contains("weir.Echo/NoSuchMethod");
                    });
        }
    }

    @ParameterizedTest(name = "{0} client, {1} server, {2}")
    @MethodSource("pairs")
    void streamOfBillionsIsPacedByTheClientAndEndsAtItsCancel(String client, String server, String transport)
            throws Exception {
        try (Pair p = new Pair(client, server, transport)) {
            // Unpaced, the server would loop for 2^31 messages on its event loop: the unary call below would hang.
            ClientCall<byte[], byte[]> call = p.channel.newCall(GrpcEchoService.SERVER_STREAM, options());
            CompletableFuture<Status> closed = new CompletableFuture<>();
            int[] received = new int[1];
            call.start(new ClientCall.Listener<>() {
                @Override
                public void onMessage(byte[] message) {
                    if (++received[0] == 1000) {
                        call.cancel("enough", null);
                    } else {
                        call.request(1);
                    }
                }

                @Override
                public void onClose(Status status, Metadata trailers) {
                    closed.complete(status);
                }
            }, new Metadata());
            call.sendMessage(GrpcJava.streamRequest(Integer.MAX_VALUE, new byte[1024]));
            call.halfClose();
            call.request(1);
            assertThat(closed.get(TIMEOUT_SECONDS, TimeUnit.SECONDS).getCode()).isEqualTo(Status.Code.CANCELLED);
            assertThat(received[0]).isEqualTo(1000);
            assertThat(unary(p.channel, GrpcJava.pattern(10))).isEqualTo(GrpcJava.pattern(10));
        }
    }

    @ParameterizedTest(name = "{0} client, {1} server, {2}")
    @MethodSource("pairs")
    void answerLargerThanTheClientsLimitIsResourceExhausted(String client, String server, String transport)
            throws Exception {
        try (Pair p = new Pair(client, server, transport)) {
            ManagedChannel small = p.newChannel(10);
            try {
                assertFailsWith(() -> unary(small, new byte[11]), Status.Code.RESOURCE_EXHAUSTED);
                assertThat(unary(small, new byte[10])).hasSize(10);
            } finally {
                small.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.weir.testsuite.grpc.GrpcJava#transports")
    void grpcJavaCallsWeirOverTlsWithAlpnH2(String transport) throws Exception {
        try (Pair p = new Pair("grpc-java", "weir", transport)) {
            // The example's HTTPS port: ALPN picks h2, and the same services answer behind TLS.
            ManagedChannel channel = GrpcJava.tlsChannelTo(p.weirServer);
            try {
                byte[] request = GrpcJava.pattern(100_000);
                assertThat(unary(channel, request)).isEqualTo(request);
                Iterator<byte[]> answers = ClientCalls.blockingServerStreamingCall(channel,
                        GrpcEchoService.SERVER_STREAM, options(), GrpcJava.streamRequest(10, new byte[] {5}));
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
