package io.weir.testsuite.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.grpc.GrpcServices;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.server.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Requests no well-behaved gRPC client sends, written frame by frame with Weir's own HTTP/2 client against
 * {@link GrpcServices} on a Weir server, and the reaction each gets; plus the wire details a generated stub hides:
 * trailers-only responses, {@code -bin} metadata with and without padding, gzip only for a client that accepts it,
 * flow control both ways, and an ordinary HTTP route beside gRPC on the same connection.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GrpcServicesHostileInputTest {
    private static final int MAX_INBOUND_BYTES = 64 * 1024;
    private static final String UNARY = "/" + SimpleServiceGrpc.getUnaryRpcMethod().getFullMethodName();
    private static final String BIDI = "/" + SimpleServiceGrpc.getBidiStreamingRpcMethod().getFullMethodName();

    private final SimpleServiceImpl service = new SimpleServiceImpl();
    private final FloodService flood = new FloodService();
    /** The slow method's messages received, and its call to ask for more. */
    private final AtomicInteger slowReceived = new AtomicInteger();
    private final CountDownLatch slowReceivedMore = new CountDownLatch(11);
    private final CompletableFuture<Void> slowFirst = new CompletableFuture<>();
    private final CompletableFuture<ServerCallStreamObserver<SimpleResponse>> slowCall = new CompletableFuture<>();
    private EventLoopGroup group;
    private HttpServer server;
    private InetSocketAddress address;
    private RawHttp2Client client;

    @BeforeEach
    void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        GrpcServices services = GrpcServices.builder().addService(service).addService(flood.definition())
                .addService(slow())
                .intercept(new GrpcServicesTest.EchoMetadata()).maxInboundMessageSize(MAX_INBOUND_BYTES).build();
        server = new HttpServer(group).grpc(services);
        address = (InetSocketAddress) server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .localAddress();
        client = new RawHttp2Client(group, address);
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        server.close();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    /** weir.Slow/Slow: a bidi call that asks for one message, and for more only when the test says so. */
    private ServerServiceDefinition slow() {
        return ServerServiceDefinition.builder("weir.Slow").addMethod(
                SimpleServiceGrpc.getBidiStreamingRpcMethod().toBuilder().setFullMethodName("weir.Slow/Slow").build(),
                ServerCalls.asyncBidiStreamingCall((StreamObserver<SimpleResponse> o) -> {
                    ServerCallStreamObserver<SimpleResponse> out = (ServerCallStreamObserver<SimpleResponse>) o;
                    out.disableAutoRequest();
                    out.request(1);
                    slowCall.complete(out);
                    return new StreamObserver<SimpleRequest>() {
                        @Override
                        public void onNext(SimpleRequest value) {
                            slowReceived.incrementAndGet();
                            slowFirst.complete(null);
                            slowReceivedMore.countDown();
                        }

                        @Override
                        public void onError(Throwable t) {
                        }

                        @Override
                        public void onCompleted() {
                            out.onCompleted();
                        }
                    };
                })).build();
    }

    private static ByteBuf message(int flag, byte[] payload) {
        return Unpooled.buffer(5 + payload.length).writeByte(flag).writeInt(payload.length).writeBytes(payload);
    }

    private static ByteBuf message(String text) {
        return message(0, SimpleServiceImpl.request(text).toByteArray());
    }

    private RawHttp2Client.Stream call(Http2Headers headers, ByteBuf data) throws Exception {
        RawHttp2Client.Stream stream = client.open(true);
        stream.write(new Http2HeadersFrame(headers, false));
        stream.write(new Http2DataFrame(data, true));
        return stream;
    }

    private static byte[] gzip(byte[] plain) throws java.io.IOException {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
            gzip.write(plain);
        }
        return zipped.toByteArray();
    }

    private static Http2Headers gzipRequest() {
        Http2Headers headers = RawHttp2Client.grpcRequest(UNARY);
        headers.add("grpc-encoding", "gzip");
        return headers;
    }

    private static void assertStatus(Http2Headers trailers, int code) {
        assertThat(trailers.get("grpc-status")).as("%s", trailers).hasToString(Integer.toString(code));
    }

    @Test
    void messagePrefixLargerThanLimitIsResourceExhausted() throws Exception {
        RawHttp2Client.Stream stream = client.open(true);
        stream.write(new Http2HeadersFrame(RawHttp2Client.grpcRequest(UNARY), false));
        // The prefix declares one byte more than the limit; the body never needs to arrive.
        stream.write(new Http2DataFrame(Unpooled.buffer(8).writeByte(0).writeInt(MAX_INBOUND_BYTES + 1)
                .writeBytes(new byte[3]), false));
        assertStatus(stream.end(), 8);
        assertThat(service.calls).hasValue(0);
    }

    @Test
    void compressedMessageInflatingPastLimitIsResourceExhausted() throws Exception {
        byte[] zipped = gzip(SimpleServiceImpl.request("0".repeat(16 * MAX_INBOUND_BYTES)).toByteArray());
        assertThat(zipped.length).isLessThan(MAX_INBOUND_BYTES);
        assertStatus(call(gzipRequest(), message(1, zipped)).end(), 8);
        assertThat(service.calls).hasValue(0);
    }

    @Test
    void compressedMessageWithinLimitIsServed() throws Exception {
        RawHttp2Client.Stream stream = call(gzipRequest(),
                message(1, gzip(SimpleServiceImpl.request("inflated").toByteArray())));
        assertThat(((Http2HeadersFrame) stream.next()).headers().get("grpc-accept-encoding")).asString()
                .contains("gzip");
        byte[] answer = (byte[]) stream.next();
        assertThat(SimpleResponse.parseFrom(ByteBuffer.wrap(answer, 5, answer.length - 5)).getResponseMessage())
                .isEqualTo("inflated");
        assertStatus(stream.end(), 0);
    }

    @Test
    void unknownEncodingIsUnimplemented() throws Exception {
        Http2Headers headers = RawHttp2Client.grpcRequest(UNARY);
        headers.add("grpc-encoding", "no-such-codec");
        RawHttp2Client.Stream stream = call(headers, message("x"));
        Http2HeadersFrame first = (Http2HeadersFrame) stream.next();
        // Trailers-only, naming what the server can decode.
        assertThat(first.endStream()).isTrue();
        assertStatus(first.headers(), 12);
        assertThat(first.headers().get("grpc-accept-encoding")).asString().contains("gzip");
        assertThat(service.calls).hasValue(0);
    }

    /** The defined reaction: INTERNAL as a trailers-only response, before any service code runs (as grpc-java). */
    @Test
    void malformedGrpcTimeoutIsRejected() throws Exception {
        for (String timeout : new String[] {"1x", "S", "123456789S", "-5m", "5", "1.5S"}) {
            Http2Headers headers = RawHttp2Client.grpcRequest(UNARY);
            headers.add("grpc-timeout", timeout);
            Http2Headers end = call(headers, message("x")).end();
            assertStatus(end, 13);
            assertThat(end.get("grpc-message")).asString().contains("grpc-timeout");
        }
        assertThat(service.calls).hasValue(0);
    }

    @Test
    void halfSentMessageAtEndStreamIsInternal() throws Exception {
        ByteBuf half = Unpooled.buffer(8).writeByte(0).writeInt(10).writeBytes(new byte[] {1, 2, 3});
        assertStatus(call(RawHttp2Client.grpcRequest(UNARY), half).end(), 13);
        assertThat(service.calls).hasValue(0);
    }

    @Test
    void clientThatNeverReadsServerStreamIsBounded() throws Exception {
        RawHttp2Client.Stream stalled = client.open(false);
        stalled.write(new Http2HeadersFrame(RawHttp2Client.grpcRequest("/weir.Flood/Flood"), false));
        stalled.write(new Http2DataFrame(message("go"), true));
        // The service stops when isReady() turns false: at the stream's send window plus the channel's buffer,
        // far below what it would send unchecked.
        int sent = flood.stalled.get(30, TimeUnit.SECONDS);
        assertThat(sent).isBetween(1, 1024);
        // Another client is served meanwhile.
        ManagedChannel other = NettyChannelBuilder.forAddress(address.getHostString(), address.getPort())
                .usePlaintext().build();
        try {
            assertThat(SimpleServiceGrpc.newBlockingStub(other).withDeadlineAfter(30, TimeUnit.SECONDS)
                    .unaryRpc(SimpleServiceImpl.request("meanwhile")).getResponseMessage()).isEqualTo("meanwhile");
        } finally {
            other.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
        assertThat(flood.cancelled).isNotDone();
        stalled.channel.close();
        flood.cancelled.get(30, TimeUnit.SECONDS);
    }

    @Test
    void slowConsumerStopsTheClientAtTheWindow() throws Exception {
        RawHttp2Client.Stream stream = client.open(true);
        stream.write(new Http2HeadersFrame(RawHttp2Client.grpcRequest("/weir.Slow/Slow"), false));
        ServerCallStreamObserver<SimpleResponse> call = slowCall.get(30, TimeUnit.SECONDS);
        String chunk = "s".repeat(16 * 1024);
        stream.write(new Http2DataFrame(message(chunk), false));
        slowFirst.get(30, TimeUnit.SECONDS);
        long cap = 64L << 20;
        long written = chunk.length();
        // Write until the stream stops taking more: the server reads none of it beyond the one message asked for.
        while (written < cap && stream.channel.eventLoop().submit(stream.channel::isWritable).get(10,
                TimeUnit.SECONDS)) {
            for (int i = 0; i < 16; i++) {
                stream.channel.write(new Http2DataFrame(message(chunk), false));
                written += chunk.length();
            }
            stream.channel.flush();
        }
        assertThat(written).isLessThan(cap);
        // Only what the service asked for was read: the rest waits in the client, stopped by the window.
        assertThat(slowReceived).hasValue(1);
        call.request(10);
        assertThat(slowReceivedMore.await(30, TimeUnit.SECONDS)).isTrue();
        stream.channel.close().sync();
    }

    @Test
    void trailersOnlyWhenTheServiceFailsBeforeSending() throws Exception {
        RawHttp2Client.Stream stream = call(RawHttp2Client.grpcRequest(UNARY), message("status:5:not here %"));
        Http2HeadersFrame first = (Http2HeadersFrame) stream.next();
        assertThat(first.endStream()).isTrue();
        assertThat(first.headers().status()).hasToString("200");
        assertThat(first.headers().get("content-type")).hasToString("application/grpc");
        assertStatus(first.headers(), 5);
        assertThat(first.headers().get("grpc-message")).hasToString("not here %25");
    }

    @Test
    void binaryMetadataWithAndWithoutPaddingIsDecoded() throws Exception {
        for (String value : new String[] {"/gA=", "/gA"}) {
            Http2Headers headers = RawHttp2Client.grpcRequest(UNARY);
            headers.add("x-blob-bin", value);
            RawHttp2Client.Stream stream = call(headers, message("m"));
            Http2HeadersFrame responseHeaders = (Http2HeadersFrame) stream.next();
            // Echoed by the interceptor, written without padding.
            assertThat(responseHeaders.headers().get("x-blob-bin")).hasToString("/gA");
            assertStatus(stream.end(), 0);
        }
    }

    @Test
    void gzipResponseOnlyForAClientThatAcceptsIt() throws Exception {
        Http2Headers accepting = RawHttp2Client.grpcRequest(UNARY);
        accepting.add("grpc-accept-encoding", "deflate, gzip");
        RawHttp2Client.Stream stream = call(accepting, message("gzip:5000"));
        assertThat(((Http2HeadersFrame) stream.next()).headers().get("grpc-encoding")).hasToString("gzip");
        byte[] answer = (byte[]) stream.next();
        assertThat(answer[0]).isEqualTo((byte) 1);
        assertThat(answer.length).isLessThan(1000);
        byte[] plain = new GZIPInputStream(new ByteArrayInputStream(answer, 5, answer.length - 5)).readAllBytes();
        assertThat(SimpleResponse.parseFrom(plain).getResponseMessage()).isEqualTo("z".repeat(5000));
        assertStatus(stream.end(), 0);

        RawHttp2Client.Stream identity = call(RawHttp2Client.grpcRequest(UNARY), message("gzip:5000"));
        assertThat(((Http2HeadersFrame) identity.next()).headers().contains("grpc-encoding")).isFalse();
        assertThat(((byte[]) identity.next())[0]).isEqualTo((byte) 0);
        assertStatus(identity.end(), 0);
    }

    @Test
    void ordinaryHttpRouteBesideGrpcOnTheSameConnection() throws Exception {
        assertStatus(call(RawHttp2Client.grpcRequest(UNARY), message("first")).end(), 0);
        RawHttp2Client.Stream plain = client.open(true);
        plain.write(new Http2HeadersFrame(new Http2Headers().method("GET").scheme("http").path("/plaintext")
                .authority("localhost"), true));
        assertThat(((Http2HeadersFrame) plain.next()).headers().status()).hasToString("200");
    }
}
