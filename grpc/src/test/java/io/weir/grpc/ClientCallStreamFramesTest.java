package io.weir.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBufUtil;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.ChannelOutboundBuffer;
import io.weir.channel.EventLoop;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2FrameCodecBuilder;
import io.weir.handler.codec.http2.Http2GoAwayFrame;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2ServerInitializer;
import io.weir.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The frames of a client call as the server sees them: a call whose last message and half-close come in one turn of
 * the event loop ends its stream on that message's DATA frame (no empty END_STREAM frame of its own), and every
 * request byte arrives whole and in order however the call is driven.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientCallStreamFramesTest {
    private static final long WAIT_SECONDS = 30;

    private static final MethodDescriptor.Marshaller<byte[]> BYTES = TestMarshallers.BYTES;

    private static final MethodDescriptor<byte[], byte[]> UNARY = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("test.Frames/Unary")
            .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
    private static final MethodDescriptor<byte[], byte[]> UPLOAD = MethodDescriptor.<byte[], byte[]>newBuilder()
            .setType(MethodDescriptor.MethodType.CLIENT_STREAMING).setFullMethodName("test.Frames/Upload")
            .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();

    /** One DATA frame of a request, as the server read it. */
    private record DataFrame(byte[] content, boolean endStream) {
    }

    /** A request as the server read it: its DATA frames, complete once END_STREAM came. */
    private record Request(String path, List<DataFrame> data) {
        byte[] bytes() {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (DataFrame d : data) {
                out.writeBytes(d.content());
            }
            return out.toByteArray();
        }
    }

    /**
     * A stream of the server: records the request's frames, and at its END_STREAM answers with a trailers-only OK
     * response.
     */
    private final class RecordingStream implements ChannelHandler {
        private String path;
        private final List<DataFrame> data = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                boolean end;
                if (msg instanceof Http2HeadersFrame headers) {
                    path = String.valueOf(headers.headers().path());
                    end = headers.endStream();
                } else if (msg instanceof Http2DataFrame frame) {
                    data.add(new DataFrame(ByteBufUtil.getBytes(frame.content()), frame.endStream()));
                    end = frame.endStream();
                } else {
                    return;
                }
                if (end) {
                    requests.add(new Request(path, List.copyOf(data)));
                    Http2Headers response = new Http2Headers().status("200");
                    response.add(GrpcHeaderNames.CONTENT_TYPE, GrpcHeaderNames.APPLICATION_GRPC);
                    response.add(GrpcHeaderNames.GRPC_STATUS, "0");
                    ctx.writeAndFlush(new Http2HeadersFrame(response, true));
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    /**
     * After the server's multiplexer, which passes the connection's own frames on: records the GOAWAY frames the
     * client sent, and how many had come when the connection closed.
     */
    private final class GoAwayRecorder implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2GoAwayFrame goAway) {
                goAways.add(goAway.errorCode());
            }
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closedAfterGoAways.complete(goAways.size());
        }
    }

    private final LinkedBlockingQueue<Request> requests = new LinkedBlockingQueue<>();
    /** The error codes of the GOAWAY frames the server received. */
    private final LinkedBlockingQueue<Long> goAways = new LinkedBlockingQueue<>();
    /** How many GOAWAY frames the server had received when its connection closed. */
    private final CompletableFuture<Integer> closedAfterGoAways = new CompletableFuture<>();
    private EventLoopGroup group;
    private Channel server;
    private WeirGrpcChannel channel;

    @BeforeEach
    void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        Http2ServerInitializer http2 = new Http2ServerInitializer(Http2FrameCodecBuilder.forServer(),
                new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel stream) {
                        stream.pipeline().addLast(new RecordingStream());
                    }
                });
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel connection) {
                        http2.install(connection.pipeline());
                        connection.pipeline().addLast(new GoAwayRecorder());
                    }
                }).bind(loopback).sync().channel();
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        channel = WeirGrpcChannel.forAddress("127.0.0.1", port).build();
    }

    @AfterEach
    void stop() throws Exception {
        channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        server.close().sync();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    /** The gRPC framing of {@code message}: uncompressed flag, big-endian length, the bytes. */
    private static byte[] framed(byte[] message) {
        byte[] b = new byte[5 + message.length];
        int n = message.length;
        b[1] = (byte) (n >>> 24);
        b[2] = (byte) (n >>> 16);
        b[3] = (byte) (n >>> 8);
        b[4] = (byte) n;
        System.arraycopy(message, 0, b, 5, n);
        return b;
    }

    private static byte[] message(int index, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (index * 31 + i);
        }
        return b;
    }

    /** Starts {@code call} and drives it to the half-close in this thread; its status completes {@code done}. */
    private static void drive(ClientCall<byte[], byte[]> call, List<byte[]> messages,
            CompletableFuture<Status> done) {
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onClose(Status status, Metadata trailers) {
                done.complete(status);
            }
        }, new Metadata());
        call.request(1);
        for (byte[] m : messages) {
            call.sendMessage(m);
        }
        call.halfClose();
    }

    @Test
    void unaryCallFromTheEventLoopEndsTheStreamOnItsOnlyDataFrame() throws Exception {
        byte[] first = message(1, 100);
        byte[] second = message(2, 1024);
        CompletableFuture<Status> firstDone = new CompletableFuture<>();
        CompletableFuture<Status> secondDone = new CompletableFuture<>();
        ClientCall<byte[], byte[]> call = channel.newCall(UNARY, CallOptions.DEFAULT);
        call.start(new ClientCall.Listener<>() {
            @Override
            public void onClose(Status status, Metadata trailers) {
                firstDone.complete(status);
                // On the event loop (the channel has no executor): as a stub with a direct executor issues the
                // next call from the end of the last one.
                drive(channel.newCall(UNARY, CallOptions.DEFAULT), List.of(second), secondDone);
            }
        }, new Metadata());
        call.request(1);
        call.sendMessage(first);
        call.halfClose();

        assertThat(firstDone.get(WAIT_SECONDS, TimeUnit.SECONDS).isOk()).isTrue();
        assertThat(secondDone.get(WAIT_SECONDS, TimeUnit.SECONDS).isOk()).isTrue();
        Request a = requests.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        Request b = requests.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(a.path()).isEqualTo("/test.Frames/Unary");
        assertThat(a.bytes()).isEqualTo(framed(first));
        assertThat(a.data().get(a.data().size() - 1).endStream()).isTrue();
        assertThat(b.data()).hasSize(1);
        assertThat(b.data().get(0).endStream()).isTrue();
        assertThat(b.data().get(0).content()).isEqualTo(framed(second));
    }

    @Test
    void shutdownNowSaysGoAwayBeforeTheConnectionCloses() throws Exception {
        CompletableFuture<Status> done = new CompletableFuture<>();
        drive(channel.newCall(UNARY, CallOptions.DEFAULT), List.of(message(1, 10)), done);
        assertThat(done.get(WAIT_SECONDS, TimeUnit.SECONDS).isOk()).isTrue();

        channel.shutdownNow();
        assertThat(channel.awaitTermination(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(closedAfterGoAways.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(goAways.poll()).isEqualTo(Http2Error.NO_ERROR.code());
    }

    @Test
    void messagesAndHalfCloseInOneLoopTurnEndOnTheLastMessage() throws Exception {
        List<byte[]> messages = new ArrayList<>();
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i = 0; i < 20; i++) {
            byte[] m = message(i, 10 + i * 50);
            messages.add(m);
            expected.writeBytes(framed(m));
        }
        CompletableFuture<Status> done = new CompletableFuture<>();
        channel.loop().execute(() -> drive(channel.newCall(UPLOAD, CallOptions.DEFAULT), messages, done));

        assertThat(done.get(WAIT_SECONDS, TimeUnit.SECONDS).isOk()).isTrue();
        Request r = requests.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(r.path()).isEqualTo("/test.Frames/Upload");
        assertThat(r.bytes()).isEqualTo(expected.toByteArray());
        List<DataFrame> data = r.data();
        DataFrame last = data.get(data.size() - 1);
        assertThat(last.endStream()).isTrue();
        assertThat(last.content()).as("no empty END_STREAM frame after the last message").isNotEmpty();
        for (int i = 0; i < data.size() - 1; i++) {
            assertThat(data.get(i).endStream()).as("frame %d", i).isFalse();
        }
    }

    @Test
    void callDrivenFromAnotherThreadSendsEveryByteInOrderAndEnds() throws Exception {
        List<byte[]> messages = List.of(message(1, 3), message(2, 0), message(3, 5000));
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (byte[] m : messages) {
            expected.writeBytes(framed(m));
        }
        CompletableFuture<Status> done = new CompletableFuture<>();
        drive(channel.newCall(UPLOAD, CallOptions.DEFAULT), messages, done);

        assertThat(done.get(WAIT_SECONDS, TimeUnit.SECONDS).isOk()).isTrue();
        Request r = requests.poll(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(r.bytes()).isEqualTo(expected.toByteArray());
        assertThat(r.data().get(r.data().size() - 1).endStream()).isTrue();
    }

    /** A client socket channel that counts its writes to the socket: each is a flush that had bytes to send. */
    public static final class CountingNioSocketChannel extends NioSocketChannel {
        static final AtomicInteger WRITES = new AtomicInteger();

        public CountingNioSocketChannel(EventLoop eventLoop) {
            super(eventLoop);
        }

        @Override
        protected void doWrite(ChannelOutboundBuffer in) throws Exception {
            WRITES.incrementAndGet();
            super.doWrite(in);
        }
    }

    @Test
    void callsStartedInOneTaskGoOutInOneWrite() throws Exception {
        WeirGrpcChannel counted = WeirGrpcChannel.forAddress("127.0.0.1",
                ((InetSocketAddress) server.localAddress()).getPort()).eventLoopGroup(group)
                .channelType(CountingNioSocketChannel.class).build();
        try {
            CompletableFuture<Status> first = new CompletableFuture<>();
            counted.loop().execute(() -> drive(counted.newCall(UNARY, CallOptions.DEFAULT), List.of(message(0, 10)),
                    first));
            assertThat(first.get(WAIT_SECONDS, TimeUnit.SECONDS).isOk()).isTrue();
            requests.clear();

            List<CompletableFuture<Status>> done = new ArrayList<>();
            CompletableFuture<Integer> writesAfterTheTask = new CompletableFuture<>();
            counted.loop().execute(() -> {
                CountingNioSocketChannel.WRITES.set(0);
                // As a timer starting a batch of calls on the loop: each call flushes in a task of its own.
                for (int i = 0; i < 10; i++) {
                    CompletableFuture<Status> d = new CompletableFuture<>();
                    done.add(d);
                    drive(counted.newCall(UNARY, CallOptions.DEFAULT), List.of(message(i, 100)), d);
                }
                // Queued after those flushes: runs once they did.
                counted.loop().execute(() -> writesAfterTheTask.complete(CountingNioSocketChannel.WRITES.get()));
            });
            assertThat(writesAfterTheTask.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(1);
            for (CompletableFuture<Status> d : done) {
                assertThat(d.get(WAIT_SECONDS, TimeUnit.SECONDS).isOk()).isTrue();
            }
            for (int i = 0; i < 10; i++) {
                Request r = requests.poll(WAIT_SECONDS, TimeUnit.SECONDS);
                assertThat(r.data()).hasSize(1);
                assertThat(r.data().get(0).endStream()).isTrue();
            }
        } finally {
            counted.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
