package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.weir.grpc.GrpcServices;
import io.weir.grpc.GrpcStatusMessage;
import io.weir.bootstrap.Bootstrap;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.server.HttpServer;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2MultiplexHandler;
import io.weir.handler.codec.http2.Http2ResetFrame;
import io.weir.handler.codec.http2.Http2StreamChannel;
import io.weir.handler.codec.http2.Http2StreamChannelBootstrap;
import io.weir.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The example server's gRPC services ({@link GrpcEchoService} through {@link GrpcServices}) seen frame by frame from
 * a raw Weir HTTP/2 client: what each malformed or hostile request gets (status, trailers-only, resets), the
 * server's own deadline, and that other requests still reach the HTTP routes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GrpcWireTest {
    private static EventLoopGroup group;
    private static HttpServer server;
    private static Channel client;
    private static final HangMethod hang = new HangMethod("weir.Test/Hang");
    private static final HangMethod resetHang = new HangMethod("weir.TestReset/HangUntilReset");
    private static final String UNARY = GrpcEchoService.UNARY.getFullMethodName();

    @BeforeAll
    static void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        GrpcServices services = GrpcServices.builder().addService(GrpcEchoService.definition())
                .addService(hang.service()).addService(resetHang.service()).build();
        server = new HttpServer(group).grpc(services);
        InetSocketAddress address = (InetSocketAddress) server.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).localAddress();
        client = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(Http2FrameCodecBuilder.forClient().build(),
                                new Http2MultiplexHandler(new ChannelHandler() { }));
                    }
                }).connect(address).sync().channel();
    }

    @AfterAll
    static void stop() throws Exception {
        client.close().sync();
        server.close();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    private static Http2Headers grpcRequest(String method) {
        Http2Headers headers = new Http2Headers().method("POST").scheme("http").authority("localhost")
                .path("/" + method);
        headers.add("content-type", "application/grpc");
        headers.add("te", "trailers");
        return headers;
    }

    /** What came back on one stream: each frame in order (DATA as its bytes), until the stream closed. */
    private static List<Object> exchange(Http2Headers headers, byte[] body, boolean endStream) throws Exception {
        CompletableFuture<List<Object>> done = new CompletableFuture<>();
        List<Object> frames = new ArrayList<>();
        Http2StreamChannel stream = new Http2StreamChannelBootstrap(client).handler(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof Http2DataFrame data) {
                    frames.add(ByteBufUtil.getBytes(data.content()));
                } else {
                    frames.add(msg);
                }
                ReferenceCountUtil.release(msg);
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                done.complete(frames);
            }
        }).open().get(10, TimeUnit.SECONDS);
        stream.write(new Http2HeadersFrame(headers, body == null && endStream));
        if (body != null) {
            stream.write(new Http2DataFrame(Unpooled.wrappedBuffer(body), endStream));
        }
        stream.flush();
        return done.get(30, TimeUnit.SECONDS);
    }

    private static Http2Headers onlyHeaders(List<Object> frames) {
        assertThat(frames).hasSize(1);
        Http2HeadersFrame only = (Http2HeadersFrame) frames.get(0);
        assertThat(only.endStream()).isTrue();
        return only.headers();
    }

    private static void assertStatus(Http2Headers trailers, Status.Code status) {
        assertThat(trailers.get("grpc-status").toString()).isEqualTo(Integer.toString(status.value()));
    }

    @Test
    void unaryAnswerIsHeadersDataTrailers() throws Exception {
        List<Object> frames = exchange(grpcRequest(UNARY), new byte[] {0, 0, 0, 0, 2, 'h', 'i'}, true);
        assertThat(frames).hasSize(3);
        Http2Headers headers = ((Http2HeadersFrame) frames.get(0)).headers();
        assertThat(headers.status().toString()).isEqualTo("200");
        assertThat(headers.get("content-type").toString()).isEqualTo("application/grpc");
        assertThat((byte[]) frames.get(1)).containsExactly(0, 0, 0, 0, 2, 'h', 'i');
        Http2HeadersFrame trailers = (Http2HeadersFrame) frames.get(2);
        assertThat(trailers.endStream()).isTrue();
        assertStatus(trailers.headers(), Status.Code.OK);
    }

    @Test
    void unknownMethodIsTrailersOnlyUnimplemented() throws Exception {
        Http2Headers trailers = onlyHeaders(exchange(grpcRequest("weir.Echo/Nope"),
                new byte[] {0, 0, 0, 0, 0}, true));
        assertThat(trailers.status().toString()).isEqualTo("200");
        assertStatus(trailers, Status.Code.UNIMPLEMENTED);
        assertThat(GrpcStatusMessage.decode(trailers.get("grpc-message"))).isEqualTo("Method not found: weir.Echo/Nope");
    }

    @Test
    void compressedMessageWithoutEncodingIsInternal() throws Exception {
        Http2Headers trailers = onlyHeaders(exchange(grpcRequest(UNARY),
                new byte[] {1, 0, 0, 0, 1, 'x'}, true));
        assertStatus(trailers, Status.Code.INTERNAL);
    }

    @Test
    void unsupportedEncodingIsUnimplementedWithTheAcceptedOnes() throws Exception {
        Http2Headers request = grpcRequest(UNARY);
        request.add("grpc-encoding", "br");
        Http2Headers trailers = onlyHeaders(exchange(request, new byte[] {1, 0, 0, 0, 1, 'x'}, true));
        assertStatus(trailers, Status.Code.UNIMPLEMENTED);
        assertThat(trailers.get("grpc-accept-encoding").toString()).contains("gzip");
    }

    @Test
    void malformedTimeoutIsRejected() throws Exception {
        Http2Headers request = grpcRequest(UNARY);
        request.add("grpc-timeout", "10 seconds");
        Http2Headers trailers = onlyHeaders(exchange(request, new byte[] {0, 0, 0, 0, 0}, true));
        assertStatus(trailers, Status.Code.INTERNAL);
        assertThat(GrpcStatusMessage.decode(trailers.get("grpc-message"))).contains("grpc-timeout");
    }

    @Test
    void getIsNotACall() throws Exception {
        Http2Headers request = grpcRequest(UNARY).method("GET");
        Http2Headers trailers = onlyHeaders(exchange(request, null, true));
        assertThat(trailers.status().toString()).isEqualTo("405");
        assertStatus(trailers, Status.Code.INTERNAL);
    }

    @Test
    void oversizedMessageIsRefusedFromItsPrefixAndTheRestOfTheRequestStopped() throws Exception {
        // Only the prefix announcing 4 MiB + 1 is sent, and the request is left open: the answer cannot wait.
        int length = GrpcServices.DEFAULT_MAX_INBOUND_MESSAGE_SIZE_BYTES + 1;
        List<Object> frames = exchange(grpcRequest(UNARY),
                new byte[] {0, (byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length},
                false);
        assertThat(frames).hasSize(2);
        Http2HeadersFrame trailers = (Http2HeadersFrame) frames.get(0);
        assertStatus(trailers.headers(), Status.Code.RESOURCE_EXHAUSTED);
        // RFC 9113 §8.1: the answer is complete, so the rest of the request is stopped without error.
        assertThat(((Http2ResetFrame) frames.get(1)).error()).isEqualTo(Http2Error.NO_ERROR);
    }

    @Test
    void serverEnforcesTheDeadlineWithStatusThenStopsTheRequest() throws Exception {
        // The client here does not keep the deadline itself: only the server can end the call.
        Http2Headers request = grpcRequest(hang.method.getFullMethodName());
        request.add("grpc-timeout", "200m");
        List<Object> frames = exchange(request, new byte[] {0, 0, 0, 0, 0}, false);
        assertThat(frames).hasSize(2);
        Http2HeadersFrame trailers = (Http2HeadersFrame) frames.get(0);
        assertStatus(trailers.headers(), Status.Code.DEADLINE_EXCEEDED);
        assertThat(((Http2ResetFrame) frames.get(1)).error()).isEqualTo(Http2Error.NO_ERROR);
        assertThat(hang.ended.get(10, TimeUnit.SECONDS)).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    }

    @Test
    void clientResetCancelsTheCallAndNothingIsWritten() throws Exception {
        Http2StreamChannel stream = new Http2StreamChannelBootstrap(client).handler(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ReferenceCountUtil.release(msg);
            }
        }).open().get(10, TimeUnit.SECONDS);
        stream.write(new Http2HeadersFrame(grpcRequest(resetHang.method.getFullMethodName()), false));
        stream.writeAndFlush(new Http2DataFrame(Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 0, 0}), false));
        assertThat(resetHang.started.await(10, TimeUnit.SECONDS)).isTrue();
        stream.writeAndFlush(new Http2ResetFrame(Http2Error.CANCEL));
        assertThat(resetHang.ended.get(10, TimeUnit.SECONDS)).isEqualTo(Status.Code.CANCELLED);
        // Trailers written after the reset would reach this client's codec on a stream it reset, which ends its
        // connection today (RFC 9113 §5.1 says to ignore them): the next call on it answering shows none came.
        List<Object> frames = exchange(grpcRequest(UNARY), new byte[] {0, 0, 0, 0, 1, 'k'}, true);
        assertThat((byte[]) frames.get(1)).containsExactly(0, 0, 0, 0, 1, 'k');
    }

    @Test
    void otherRequestsReachTheHttpRoutes() throws Exception {
        Http2Headers request = new Http2Headers().method("GET").scheme("http").authority("localhost")
                .path("/plaintext");
        List<Object> frames = exchange(request, null, true);
        assertThat(((Http2HeadersFrame) frames.get(0)).headers().status().toString()).isEqualTo("200");
        StringBuilder body = new StringBuilder();
        for (Object f : frames) {
            if (f instanceof byte[] b) {
                body.append(new String(b, StandardCharsets.UTF_8));
            }
        }
        assertThat(body.toString()).isEqualTo("Hello, World!");
    }
}
