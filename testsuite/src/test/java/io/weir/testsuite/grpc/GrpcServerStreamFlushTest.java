package io.weir.testsuite.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.stub.ClientCalls;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelOption;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.WriteBufferWaterMark;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.grpc.GrpcServices;
import io.weir.grpc.WeirGrpcChannel;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2ServerInitializer;
import io.weir.server.GrpcEchoService;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How a server-streaming call's messages are flushed: a service that sends while {@code isReady()} and goes on from
 * {@code onReady()} ({@link GrpcEchoService}'s {@code ServerStream}, at the client's pace) gets one flush per
 * writable stretch of its stream, not one per message, and still sends every message, in order.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GrpcServerStreamFlushTest {
    private static final int MESSAGES = 1000;
    private static final int PAYLOAD = 100;

    @Test
    void aStreamSentAsTheChannelTurnsWritableIsFlushedOncePerWritableStretch() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        AtomicInteger flushes = new AtomicInteger();
        ChannelHandler services = GrpcServices.builder().addService(GrpcEchoService.definition()).build()
                .streamHandler(new ChannelHandler() { });
        Http2ServerInitializer http2 = new Http2ServerInitializer(Http2FrameCodecBuilder.forServer(),
                new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel stream) {
                        // A small window of unflushed bytes: the service stops after a few dozen messages until a
                        // flush drains them.
                        stream.config().setOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                                new WriteBufferWaterMark(1024, 4096));
                        stream.pipeline().addLast(new ChannelHandler() {
                            @Override
                            public void flush(ChannelHandlerContext ctx) {
                                flushes.incrementAndGet();
                                ctx.flush();
                            }
                        }, services);
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
        WeirGrpcChannel channel = WeirGrpcChannel.forAddress("127.0.0.1",
                ((InetSocketAddress) server.localAddress()).getPort()).build();
        try {
            byte[] payload = GrpcJava.pattern(PAYLOAD);
            Iterator<byte[]> answers = ClientCalls.blockingServerStreamingCall(channel,
                    GrpcEchoService.SERVER_STREAM, CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS),
                    GrpcJava.streamRequest(MESSAGES, payload));
            int count = 0;
            while (answers.hasNext()) {
                assertThat(answers.next()).isEqualTo(payload);
                count++;
            }
            assertThat(count).isEqualTo(MESSAGES);
            // 4 KiB of 105-byte messages is about 40 per writable stretch; one flush per message would be 1,000.
            assertThat(flushes.get()).isBetween(2, MESSAGES / 20);
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            server.close().sync();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }
}
