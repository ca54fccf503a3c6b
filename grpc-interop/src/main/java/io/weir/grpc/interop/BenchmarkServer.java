package io.weir.grpc.interop;

import io.grpc.Server;
import io.grpc.testing.BenchmarkServiceGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel;
import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.grpc.GrpcServices;
import io.weir.server.HttpServer;
import io.weir.server.Transports;
import java.net.InetSocketAddress;

/**
 * {@code grpc.testing.BenchmarkService} for load from another process (microbench/grpc-load-compare): on Weir, or
 * on grpc-java's own Netty server, each with one event loop (epoll where available) and the service run directly on
 * it, so the two differ only in the gRPC and HTTP/2 layers.
 *
 * <pre>
 * java -cp grpc-interop/target/weir-grpc-interop.jar io.weir.grpc.interop.BenchmarkServer --port=50051 --impl=weir
 * java -cp ... io.weir.grpc.interop.BenchmarkServer --port=50052 --impl=grpc-java
 * </pre>
 */
public final class BenchmarkServer {
    private BenchmarkServer() {
    }

    public static void main(String[] args) throws Exception {
        InteropFlags flags = InteropFlags.parse(args);
        int port = flags.intValue("port", 50051);
        String impl = flags.value("impl", "weir");
        flags.rejectUnknown();
        switch (impl) {
            case "weir" -> serveOnWeir(port);
            case "grpc-java" -> serveOnGrpcJava(port);
            default -> throw new IllegalArgumentException("--impl takes weir or grpc-java, not " + impl);
        }
    }

    private static void serveOnWeir(int port) throws Exception {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, Transports.ioHandlerFactory());
        try {
            GrpcServices services = GrpcServices.builder().addService(BenchmarkServiceGrpc.bindService(new BenchmarkServiceImpl()))
                    .directExecutor().build();
            HttpServer server = new HttpServer(group).grpc(services);
            Channel channel = server.start(new InetSocketAddress(port));
            System.out.println("BenchmarkService on Weir, port " + port + ", " + group);
            channel.closeFuture().sync();
        } finally {
            group.shutdownGracefully();
        }
    }

    private static void serveOnGrpcJava(int port) throws Exception {
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(port)).directExecutor()
                .addService(BenchmarkServiceGrpc.bindService(new BenchmarkServiceImpl()));
        if (Epoll.isAvailable()) {
            EpollEventLoopGroup loop = new EpollEventLoopGroup(1);
            builder.bossEventLoopGroup(loop).workerEventLoopGroup(loop).channelType(EpollServerSocketChannel.class);
        } else {
            NioEventLoopGroup loop = new NioEventLoopGroup(1);
            builder.bossEventLoopGroup(loop).workerEventLoopGroup(loop).channelType(NioServerSocketChannel.class);
        }
        Server server = builder.build().start();
        System.out.println("BenchmarkService on grpc-java (Netty), port " + port);
        server.awaitTermination();
    }
}
