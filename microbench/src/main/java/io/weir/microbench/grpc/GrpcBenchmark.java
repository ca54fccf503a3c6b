package io.weir.microbench.grpc;

import com.google.common.util.concurrent.ListenableFuture;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.server.Transports;
import io.weir.grpc.EchoService;
import io.weir.server.HttpServer;
import io.weir.microbench.util.AbstractMicrobenchmark;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * gRPC calls per second through a real loopback connection, driven by the same grpc-java 1.85 client (one
 * connection, its own one-thread event loop, direct executor) against two servers with the same raw-bytes echo
 * service: Weir's example server and its gRPC route ({@code weir*}, {@link EchoService}) and grpc-java's own Netty
 * server ({@code netty*}, {@code NettyServerBuilder}, direct executor). Each server has one event loop, epoll where
 * available on both sides. The client and its marshalling cost the same in both, so the ratio understates the
 * servers' own difference.
 *
 * <p>{@code *Unary}: {@value #CALLS} unary calls of {@value #PAYLOAD_BYTES} bytes in flight per operation (below
 * both servers' stream limits), counted per call. {@code *ServerStream}: one server-streaming call answering
 * {@value #STREAM_MESSAGES} messages of {@value #PAYLOAD_BYTES} bytes, counted per message.
 */
@OutputTimeUnit(TimeUnit.SECONDS)
public class GrpcBenchmark extends AbstractMicrobenchmark {
    static final int CALLS = 50;
    static final int PAYLOAD_BYTES = 64;
    static final int STREAM_MESSAGES = 100;

    static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };
    static final MethodDescriptor<byte[], byte[]> UNARY = method(EchoService.UNARY, MethodType.UNARY);
    static final MethodDescriptor<byte[], byte[]> SERVER_STREAM =
            method(EchoService.SERVER_STREAM, MethodType.SERVER_STREAMING);

    static MethodDescriptor<byte[], byte[]> method(String name, MethodType type) {
        return MethodDescriptor.<byte[], byte[]>newBuilder().setType(type).setFullMethodName(name)
                .setRequestMarshaller(BYTES).setResponseMarshaller(BYTES).build();
    }

    /** grpc-java's client on one connection to {@code port}; subclasses start the server. */
    @State(Scope.Benchmark)
    public abstract static class Client {
        EventLoopGroup clientLoop;
        ManagedChannel channel;
        final byte[] payload = new byte[PAYLOAD_BYTES];
        final byte[] streamRequest = ByteBuffer.allocate(4 + PAYLOAD_BYTES).putInt(STREAM_MESSAGES)
                .put(new byte[PAYLOAD_BYTES]).array();

        void connect(int port) {
            boolean epoll = Epoll.isAvailable();
            clientLoop = epoll ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
            channel = NettyChannelBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))
                    .eventLoopGroup(clientLoop).channelType(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                    .directExecutor().usePlaintext().build();
            // Connected and warm before the first iteration.
            ClientCalls.blockingUnaryCall(channel, UNARY, CallOptions.DEFAULT, payload);
        }

        void closeClient() throws InterruptedException {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            clientLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    /** Weir's example server ({@link HttpServer} with its default gRPC route) on one event loop. */
    public static class WeirServer extends Client {
        io.weir.channel.EventLoopGroup group;
        HttpServer server;

        @Setup(Level.Trial)
        public void start() throws Exception {
            group = new MultiThreadIoEventLoopGroup(1, Transports.ioHandlerFactory());
            server = new HttpServer(group);
            int port = ((InetSocketAddress) server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .localAddress()).getPort();
            connect(port);
        }

        @TearDown(Level.Trial)
        public void stop() throws Exception {
            closeClient();
            server.close();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    /** grpc-java's Netty server with the same echo methods, on one boss and one worker event loop. */
    public static class NettyServer extends Client {
        EventLoopGroup boss;
        EventLoopGroup worker;
        Server server;

        @Setup(Level.Trial)
        public void start() throws Exception {
            boolean epoll = Epoll.isAvailable();
            boss = epoll ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
            worker = epoll ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
            ServerServiceDefinition echo = ServerServiceDefinition.builder(EchoService.SERVICE)
                    .addMethod(UNARY, ServerCalls.asyncUnaryCall((request, answer) -> {
                        answer.onNext(request);
                        answer.onCompleted();
                    }))
                    .addMethod(SERVER_STREAM, ServerCalls.asyncServerStreamingCall((request, answer) -> {
                        int count = ByteBuffer.wrap(request).getInt();
                        byte[] message = Arrays.copyOfRange(request, 4, request.length);
                        for (int i = 0; i < count; i++) {
                            answer.onNext(message);
                        }
                        answer.onCompleted();
                    }))
                    .build();
            server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .bossEventLoopGroup(boss).workerEventLoopGroup(worker)
                    .channelType(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                    .directExecutor().addService(echo).build().start();
            connect(((InetSocketAddress) server.getListenSockets().get(0)).getPort());
        }

        @TearDown(Level.Trial)
        public void stop() throws Exception {
            closeClient();
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            worker.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @SuppressWarnings("unchecked")
    private static void unary(Client c, Blackhole bh) throws Exception {
        ListenableFuture<byte[]>[] calls = new ListenableFuture[CALLS];
        for (int i = 0; i < CALLS; i++) {
            calls[i] = ClientCalls.futureUnaryCall(c.channel.newCall(UNARY, CallOptions.DEFAULT), c.payload);
        }
        for (int i = 0; i < CALLS; i++) {
            bh.consume(calls[i].get(10, TimeUnit.SECONDS));
        }
    }

    private static void serverStream(Client c, Blackhole bh) {
        Iterator<byte[]> answers = ClientCalls.blockingServerStreamingCall(c.channel, SERVER_STREAM,
                CallOptions.DEFAULT, c.streamRequest);
        while (answers.hasNext()) {
            bh.consume(answers.next());
        }
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public void weirUnary(WeirServer s, Blackhole bh) throws Exception {
        unary(s, bh);
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public void nettyUnary(NettyServer s, Blackhole bh) throws Exception {
        unary(s, bh);
    }

    @Benchmark
    @OperationsPerInvocation(STREAM_MESSAGES)
    public void weirServerStream(WeirServer s, Blackhole bh) {
        serverStream(s, bh);
    }

    @Benchmark
    @OperationsPerInvocation(STREAM_MESSAGES)
    public void nettyServerStream(NettyServer s, Blackhole bh) {
        serverStream(s, bh);
    }
}
