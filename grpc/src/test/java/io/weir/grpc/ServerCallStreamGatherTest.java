package io.weir.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelPromise;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2ServerInitializer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Messages a service sends on the event loop are gathered into few DATA frames: every message still arrives, whole
 * and in order, including one too large to gather and one sent in a later loop turn.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ServerCallStreamGatherTest {
    private static final int SMALL_MESSAGES = 300;
    private static final int SMALL_BYTES = 100;
    private static final int LARGE_BYTES = ServerCallStream.GATHER_BYTES + 4096;

    private static final MethodDescriptor.Marshaller<byte[]> BYTES = TestMarshallers.BYTES;

    private static final MethodDescriptor<byte[], byte[]> STREAM = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.SERVER_STREAMING).setFullMethodName("test.Gather/Stream")
            .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();

    private static byte[] message(int index, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (index * 13 + i);
        }
        return b;
    }

    /** What the service sends: small messages with a large one among them; the last one from a later loop task. */
    private static List<byte[]> expected() {
        List<byte[]> all = new ArrayList<>();
        for (int i = 0; i < SMALL_MESSAGES; i++) {
            all.add(message(i, i == SMALL_MESSAGES / 2 ? LARGE_BYTES : SMALL_BYTES));
        }
        all.add(message(SMALL_MESSAGES, SMALL_BYTES));
        return all;
    }

    private static ServerServiceDefinition service() {
        ServerCallHandler<byte[], byte[]> handler = (call, headers) -> {
            call.request(1);
            return new ServerCall.Listener<>() {
                @Override
                public void onHalfClose() {
                    List<byte[]> all = expected();
                    call.sendHeaders(new Metadata());
                    for (int i = 0; i < all.size() - 1; i++) {
                        call.sendMessage(all.get(i));
                    }
                    // A later turn of the loop: what was gathered before went out with the earlier flush.
                    ((ServerCallStream<?, ?>) call).eventLoop().execute(() -> {
                        call.sendMessage(all.get(all.size() - 1));
                        call.close(Status.OK, new Metadata());
                    });
                }
            };
        };
        return ServerServiceDefinition.builder("test.Gather").addMethod(STREAM, handler).build();
    }

    /** Each connection: HTTP/2 with {@code streams} as every stream's handler. */
    private static final class Connections extends ChannelInitializer<Channel> {
        private final Http2ServerInitializer http2;

        Connections(ChannelHandler streams) {
            http2 = new Http2ServerInitializer(Http2FrameCodecBuilder.forServer(), streams);
        }

        @Override
        protected void initChannel(Channel connection) {
            http2.install(connection.pipeline());
        }
    }

    /** Counts the DATA frames a stream's handlers write. */
    private static final class DataFrameCounter implements ChannelHandler {
        private final AtomicInteger count;

        DataFrameCounter(AtomicInteger count) {
            this.count = count;
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof Http2DataFrame) {
                count.incrementAndGet();
            }
            ctx.write(msg, promise);
        }
    }

    @Test
    void messagesSentInOneLoopTurnGoOutInFewDataFramesWholeAndInOrder() throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        AtomicInteger dataFrames = new AtomicInteger();
        ChannelHandler services = GrpcServices.builder().addService(service()).directExecutor().build()
                .streamHandler(new ChannelHandler() { });
        ChannelInitializer<Channel> streams = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel stream) {
                stream.pipeline().addLast(new DataFrameCounter(dataFrames), services);
            }
        };
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new Connections(streams)).bind(loopback).sync().channel();
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        WeirGrpcChannel channel = WeirGrpcChannel.forAddress("127.0.0.1", port).build();
        try {
            List<byte[]> received = new ArrayList<>();
            CompletableFuture<Status> done = new CompletableFuture<>();
            ClientCall<byte[], byte[]> call = channel.newCall(STREAM,
                    CallOptions.DEFAULT.withDeadlineAfter(30, TimeUnit.SECONDS));
            call.start(new ClientCall.Listener<>() {
                @Override
                public void onMessage(byte[] message) {
                    synchronized (received) {
                        received.add(message);
                    }
                }

                @Override
                public void onClose(Status status, Metadata trailers) {
                    done.complete(status);
                }
            }, new Metadata());
            call.request(Integer.MAX_VALUE);
            call.sendMessage(new byte[0]);
            call.halfClose();

            assertThat(done.get(30, TimeUnit.SECONDS).isOk()).isTrue();
            List<byte[]> expected = expected();
            synchronized (received) {
                assertThat(received).hasSize(expected.size());
                for (int i = 0; i < expected.size(); i++) {
                    assertThat(received.get(i)).as("message %d", i).isEqualTo(expected.get(i));
                }
            }
            // About 31 KiB of small messages in 16 KiB batches, the large one alone, the last one alone: one frame
            // per message would be 301.
            assertThat(dataFrames.get()).isBetween(3, 10);
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            server.close().sync();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }
}
