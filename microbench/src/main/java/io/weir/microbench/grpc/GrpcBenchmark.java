package io.weir.microbench.grpc;

import com.google.common.util.concurrent.ListenableFuture;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Server;
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
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.grpc.WeirGrpcChannel;
import io.weir.server.GrpcEchoService;
import io.weir.server.Transports;
import io.weir.server.HttpServer;
import io.weir.microbench.util.AbstractMicrobenchmark;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
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
 * gRPC calls per second, and with {@code -prof gc} allocation per call, through a real loopback connection in one
 * process: Weir's pair ({@code weir*}: the example {@link HttpServer} serving through {@code GrpcServices}, called
 * through {@link WeirGrpcChannel}) against grpc-java 1.85's pair ({@code netty*}, so named for {@code ratios.py}:
 * {@code NettyServerBuilder} and {@code NettyChannelBuilder}, grpc-netty-shaded), with direct executors, the same
 * service ({@link GrpcEchoService}, raw bytes) and the same stub calls ({@link ClientCalls}). Each side has one
 * server event loop and one client event loop, epoll where available. Allocation counts every thread of the
 * process, so a call's figure is its client's and its server's together.
 *
 * <p>{@code *Unary}: {@value #CALLS} unary calls of {@value #PAYLOAD_BYTES} bytes in flight per operation (below
 * both servers' stream limits), counted per call. {@code *ServerStream}: one server-streaming call answering
 * {@value #STREAM_MESSAGES} messages of {@value #PAYLOAD_BYTES} bytes, counted per message.
 */
@OutputTimeUnit(TimeUnit.SECONDS)
public class GrpcBenchmark extends AbstractMicrobenchmark {
    static final int CALLS = 50;
    static final int PAYLOAD_BYTES = 1024;
    static final int STREAM_MESSAGES = 100;

    /** A client and a server; subclasses start both. */
    @State(Scope.Benchmark)
    public abstract static class Pair {
        ManagedChannel channel;
        final byte[] payload = new byte[PAYLOAD_BYTES];
        final byte[] streamRequest = ByteBuffer.allocate(4 + PAYLOAD_BYTES).putInt(STREAM_MESSAGES)
                .put(new byte[PAYLOAD_BYTES]).array();

        /** Connected and warm before the first iteration. */
        void warm() {
            ClientCalls.blockingUnaryCall(channel, GrpcEchoService.UNARY, CallOptions.DEFAULT, payload);
        }
    }

    /** Weir's example server ({@link HttpServer}, its default services) and {@link WeirGrpcChannel}. */
    public static class WeirPair extends Pair {
        io.weir.channel.EventLoopGroup serverGroup;
        io.weir.channel.EventLoopGroup clientGroup;
        HttpServer server;

        @Setup(Level.Trial)
        public void start() throws Exception {
            serverGroup = new MultiThreadIoEventLoopGroup(1, Transports.ioHandlerFactory());
            clientGroup = new MultiThreadIoEventLoopGroup(1, Transports.ioHandlerFactory());
            server = new HttpServer(serverGroup);
            int port = ((InetSocketAddress) server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .localAddress()).getPort();
            channel = WeirGrpcChannel.forAddress(InetAddress.getLoopbackAddress().getHostAddress(), port)
                    .eventLoopGroup(clientGroup).channelType(Transports.socketChannel(clientGroup)).build();
            warm();
        }

        @TearDown(Level.Trial)
        public void stop() throws Exception {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            server.close();
            clientGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            serverGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    /** grpc-java's Netty server (one boss, one worker loop) and Netty channel (one loop), the same service. */
    public static class GrpcJavaPair extends Pair {
        EventLoopGroup boss;
        EventLoopGroup worker;
        EventLoopGroup clientLoop;
        Server server;

        @Setup(Level.Trial)
        public void start() throws Exception {
            boolean epoll = Epoll.isAvailable();
            boss = epoll ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
            worker = epoll ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
            clientLoop = epoll ? new EpollEventLoopGroup(1) : new NioEventLoopGroup(1);
            server = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .bossEventLoopGroup(boss).workerEventLoopGroup(worker)
                    .channelType(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                    .directExecutor().addService(GrpcEchoService.definition()).build().start();
            int port = ((InetSocketAddress) server.getListenSockets().get(0)).getPort();
            channel = NettyChannelBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), port))
                    .eventLoopGroup(clientLoop).channelType(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                    .directExecutor().usePlaintext().build();
            warm();
        }

        @TearDown(Level.Trial)
        public void stop() throws Exception {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            clientLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            worker.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @SuppressWarnings("unchecked")
    private static void unary(Pair c, Blackhole bh) throws Exception {
        ListenableFuture<byte[]>[] calls = new ListenableFuture[CALLS];
        for (int i = 0; i < CALLS; i++) {
            calls[i] = ClientCalls.futureUnaryCall(c.channel.newCall(GrpcEchoService.UNARY, CallOptions.DEFAULT),
                    c.payload);
        }
        for (int i = 0; i < CALLS; i++) {
            bh.consume(calls[i].get(10, TimeUnit.SECONDS));
        }
    }

    private static void serverStream(Pair c, Blackhole bh) {
        Iterator<byte[]> answers = ClientCalls.blockingServerStreamingCall(c.channel, GrpcEchoService.SERVER_STREAM,
                CallOptions.DEFAULT, c.streamRequest);
        while (answers.hasNext()) {
            bh.consume(answers.next());
        }
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public void weirUnary(WeirPair s, Blackhole bh) throws Exception {
        unary(s, bh);
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public void nettyUnary(GrpcJavaPair s, Blackhole bh) throws Exception {
        unary(s, bh);
    }

    @Benchmark
    @OperationsPerInvocation(STREAM_MESSAGES)
    public void weirServerStream(WeirPair s, Blackhole bh) {
        serverStream(s, bh);
    }

    @Benchmark
    @OperationsPerInvocation(STREAM_MESSAGES)
    public void nettyServerStream(GrpcJavaPair s, Blackhole bh) {
        serverStream(s, bh);
    }
}
