package io.weir.testsuite.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.grpc.testing.protobuf.SimpleRequest;
import io.grpc.testing.protobuf.SimpleResponse;
import io.grpc.testing.protobuf.SimpleServiceGrpc;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.grpc.GrpcServices;
import io.weir.grpc.WeirGrpcChannel;
import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2ResetFrame;
import io.weir.handler.codec.http2.Http2ServerInitializer;
import io.weir.util.ReferenceCountUtil;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * WeirGrpcChannel's transparent retry: a stream the server refuses (RST_STREAM REFUSED_STREAM, nothing processed)
 * before answering is opened again once with the request sent so far; a second refusal ends the call.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WeirGrpcChannelRefusedStreamTest {
    private final SimpleServiceImpl service = new SimpleServiceImpl();
    /** How many of the next streams the server refuses. */
    private final AtomicInteger toRefuse = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();
    private EventLoopGroup group;
    private WeirGrpcChannel channel;

    @BeforeEach
    void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        ChannelHandler services = GrpcServices.builder().addService(service).build()
                .streamHandler(new Refuse());
        Http2ServerInitializer http2 = new Http2ServerInitializer(Http2FrameCodecBuilder.forServer(),
                new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel stream) {
                        stream.pipeline().addLast(toRefuse.getAndDecrement() > 0 ? new Refuse() : services);
                    }
                });
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        http2.install(ch.pipeline());
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        channel = WeirGrpcChannel.forAddress("127.0.0.1", ((InetSocketAddress) server.localAddress()).getPort())
                .build();
    }

    @AfterEach
    void stop() throws Exception {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    /** Answers a stream's HEADERS with RST_STREAM REFUSED_STREAM, processing nothing. */
    @ChannelHandler.Sharable
    private final class Refuse implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
            if (msg instanceof Http2HeadersFrame) {
                refused.incrementAndGet();
                ctx.writeAndFlush(new Http2ResetFrame(Http2Error.REFUSED_STREAM));
            }
        }
    }

    @Test
    void refusedUnaryCallIsRetriedTransparently() {
        toRefuse.set(1);
        SimpleResponse response = SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
                .unaryRpc(SimpleServiceImpl.request("again"));
        assertThat(response.getResponseMessage()).isEqualTo("again");
        assertThat(refused.get()).isEqualTo(1);
        assertThat(service.calls.get()).isEqualTo(1);
    }

    @Test
    void refusedClientStreamIsRetriedWithEveryMessageSentSoFar() throws Exception {
        toRefuse.set(1);
        CompletableFuture<String> joined = new CompletableFuture<>();
        StreamObserver<SimpleRequest> requests = SimpleServiceGrpc.newStub(channel)
                .withDeadlineAfter(10, TimeUnit.SECONDS).clientStreamingRpc(new StreamObserver<>() {
                    @Override
                    public void onNext(SimpleResponse value) {
                        joined.complete(value.getResponseMessage());
                    }

                    @Override
                    public void onError(Throwable t) {
                        joined.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted() {
                    }
                });
        for (String part : new String[] {"a", "b", "c"}) {
            requests.onNext(SimpleServiceImpl.request(part));
        }
        requests.onCompleted();
        assertThat(joined.get(10, TimeUnit.SECONDS)).isEqualTo("abc");
        assertThat(refused.get()).isEqualTo(1);
    }

    @Test
    void streamRefusedTwiceEndsTheCall() {
        toRefuse.set(2);
        assertThatThrownBy(() -> SimpleServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
                .unaryRpc(SimpleServiceImpl.request("never")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
                    assertThat(e.getStatus().getDescription()).contains("REFUSED_STREAM");
                });
        assertThat(refused.get()).isEqualTo(2);
        assertThat(service.calls.get()).isZero();
    }
}
