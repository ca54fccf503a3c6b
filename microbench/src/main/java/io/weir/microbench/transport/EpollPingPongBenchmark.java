package io.weir.microbench.transport;

import io.weir.microbench.util.AbstractMicrobenchmark;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

/**
 * {@link NioPingPongBenchmark} over the native epoll transports: Weir's {@code EpollIoHandler} with its epoll TCP
 * channels against Netty 4.2's. Same handlers (those of {@link NioPingPongBenchmark}), same shape: one server loop,
 * one client loop, {@value #ROUNDS} round trips of {@code size} bytes per invocation; the score is round trips per
 * microsecond. Linux only; the fork enables native access (JDK 24+ refuses Weir's library without it).
 */
@Fork(value = AbstractMicrobenchmark.FORKS, jvmArgsAppend = {
        AbstractMicrobenchmark.HEAP_MIN, AbstractMicrobenchmark.HEAP_MAX,
        AbstractMicrobenchmark.WEIR_NO_LEAK_DETECTION, AbstractMicrobenchmark.NETTY_NO_LEAK_DETECTION,
        EpollEventLoopExecuteBenchmark.NATIVE_ACCESS})
@OperationsPerInvocation(EpollPingPongBenchmark.ROUNDS)
public class EpollPingPongBenchmark extends AbstractMicrobenchmark {
    static final int ROUNDS = 100;
    private static final long TIMEOUT_SECONDS = 30;

    @Param({"64", "4096"})
    public int size;

    private WeirSide weir;
    private NettySide netty;

    @Setup
    public void setup() throws Exception {
        io.weir.channel.epoll.Epoll.ensureAvailability();
        io.netty.channel.epoll.Epoll.ensureAvailability();
        weir = new WeirSide(size);
        netty = new NettySide(size);
    }

    @TearDown
    public void tearDown() throws Exception {
        weir.close();
        netty.close();
    }

    @Benchmark
    public int weirPingPong() throws Exception {
        return weir.run(ROUNDS);
    }

    @Benchmark
    public int nettyPingPong() throws Exception {
        return netty.run(ROUNDS);
    }

    static final class WeirSide {
        private final io.weir.channel.MultiThreadIoEventLoopGroup serverGroup;
        private final io.weir.channel.MultiThreadIoEventLoopGroup clientGroup;
        private final io.weir.channel.Channel server;
        private final io.weir.channel.Channel client;
        private final NioPingPongBenchmark.WeirClientHandler handler;

        WeirSide(int size) throws Exception {
            serverGroup = new io.weir.channel.MultiThreadIoEventLoopGroup(1,
                    io.weir.channel.epoll.EpollIoHandler.newFactory());
            clientGroup = new io.weir.channel.MultiThreadIoEventLoopGroup(1,
                    io.weir.channel.epoll.EpollIoHandler.newFactory());
            server = new io.weir.bootstrap.ServerBootstrap()
                    .group(serverGroup)
                    .channel(io.weir.channel.epoll.EpollServerSocketChannel.class)
                    .childOption(io.weir.channel.ChannelOption.TCP_NODELAY, true)
                    .childHandler(new NioPingPongBenchmark.WeirEchoHandler())
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            handler = new NioPingPongBenchmark.WeirClientHandler(size);
            client = new io.weir.bootstrap.Bootstrap()
                    .group(clientGroup)
                    .channel(io.weir.channel.epoll.EpollSocketChannel.class)
                    .option(io.weir.channel.ChannelOption.TCP_NODELAY, true)
                    .handler(handler)
                    .connect(server.localAddress()).sync().channel();
        }

        int run(int rounds) throws Exception {
            CompletableFuture<Integer> done = new CompletableFuture<>();
            client.eventLoop().execute(() -> handler.start(client, rounds, done));
            return done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }

        void close() throws Exception {
            client.close().sync();
            server.close().sync();
            clientGroup.shutdownGracefully(0, TIMEOUT_SECONDS, TimeUnit.SECONDS).sync();
            serverGroup.shutdownGracefully(0, TIMEOUT_SECONDS, TimeUnit.SECONDS).sync();
        }
    }

    static final class NettySide {
        private final io.netty.channel.MultiThreadIoEventLoopGroup serverGroup;
        private final io.netty.channel.MultiThreadIoEventLoopGroup clientGroup;
        private final io.netty.channel.Channel server;
        private final io.netty.channel.Channel client;
        private final NioPingPongBenchmark.NettyClientHandler handler;

        NettySide(int size) throws Exception {
            serverGroup = new io.netty.channel.MultiThreadIoEventLoopGroup(1,
                    io.netty.channel.epoll.EpollIoHandler.newFactory());
            clientGroup = new io.netty.channel.MultiThreadIoEventLoopGroup(1,
                    io.netty.channel.epoll.EpollIoHandler.newFactory());
            server = new io.netty.bootstrap.ServerBootstrap()
                    .group(serverGroup)
                    .channel(io.netty.channel.epoll.EpollServerSocketChannel.class)
                    .childOption(io.netty.channel.ChannelOption.TCP_NODELAY, true)
                    .childHandler(new NioPingPongBenchmark.NettyEchoHandler())
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            handler = new NioPingPongBenchmark.NettyClientHandler(size);
            client = new io.netty.bootstrap.Bootstrap()
                    .group(clientGroup)
                    .channel(io.netty.channel.epoll.EpollSocketChannel.class)
                    .option(io.netty.channel.ChannelOption.TCP_NODELAY, true)
                    .handler(handler)
                    .connect(server.localAddress()).sync().channel();
        }

        int run(int rounds) throws Exception {
            CompletableFuture<Integer> done = new CompletableFuture<>();
            client.eventLoop().execute(() -> handler.start(client, rounds, done));
            return done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }

        void close() throws Exception {
            client.close().sync();
            server.close().sync();
            clientGroup.shutdownGracefully(0, TIMEOUT_SECONDS, TimeUnit.SECONDS).sync();
            serverGroup.shutdownGracefully(0, TIMEOUT_SECONDS, TimeUnit.SECONDS).sync();
        }
    }
}
