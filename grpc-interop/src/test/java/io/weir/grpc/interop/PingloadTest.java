package io.weir.grpc.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.testing.BenchmarkServiceGrpc;
import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.grpc.GrpcServices;
import io.weir.server.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * pingload, the HTTP/2 load client that microbench/grpc-load-compare uses for ping-pong and server streaming, against
 * BenchmarkService on Weir and on grpc-java's own server: it completes calls on both, and it fails, rather than
 * counting, when the server ends a call with an error.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PingloadTest {
    private static final Pattern ROUNDS = Pattern.compile("qps: [0-9]+ rounds: ([0-9]+)");

    private static Path pingload;
    private static EventLoopGroup group;
    private static Channel weir;
    private static Server grpcJava;

    @BeforeAll
    static void start() throws Exception {
        pingload = GoInterop.pingload();
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        GrpcServices services = GrpcServices.builder()
                .addService(BenchmarkServiceGrpc.bindService(new BenchmarkServiceImpl())).directExecutor().build();
        weir = new HttpServer(group).grpc(services)
                .start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        grpcJava = NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .directExecutor().addService(BenchmarkServiceGrpc.bindService(new BenchmarkServiceImpl())).build()
                .start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (grpcJava != null) {
            grpcJava.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
        }
        if (weir != null) {
            weir.close().sync();
        }
        if (group != null) {
            group.shutdownGracefully().sync();
        }
    }

    private static int weirPort() {
        return ((InetSocketAddress) weir.localAddress()).getPort();
    }

    private static long rounds(int port, String... flags) throws Exception {
        List<String> command = new ArrayList<>(List.of(pingload.toString(), "-addr=127.0.0.1:" + port,
                "-w=0", "-d=1"));
        command.addAll(List.of(flags));
        GoInterop.Result run = GoInterop.run(60, Path.of("."), command);
        assertThat(run.exitCode()).as(run.output()).isZero();
        Matcher m = ROUNDS.matcher(run.output());
        assertThat(m.find()).as(run.output()).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    void pingPongCompletesRoundTripsOnWeirAndOnGrpcJava() throws Exception {
        assertThat(rounds(weirPort(), "-mode=pingpong", "-streams=10")).isPositive();
        assertThat(rounds(grpcJava.getPort(), "-mode=pingpong", "-streams=10")).isPositive();
    }

    @Test
    void serverStreamingCountsMessagesOnWeirAndOnGrpcJava() throws Exception {
        assertThat(rounds(weirPort(), "-mode=stream", "-streams=1")).isPositive();
        assertThat(rounds(grpcJava.getPort(), "-mode=stream", "-streams=1")).isPositive();
    }

    @Test
    void aCallEndedWithAnErrorFailsTheRun() throws Exception {
        // A server without BenchmarkService ends every call at once with UNIMPLEMENTED (12): no round may count.
        try (TestServiceServer other = TestServiceServer.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), null)) {
            GoInterop.Result run = GoInterop.run(60, Path.of("."), List.of(pingload.toString(),
                    "-addr=127.0.0.1:" + other.port(), "-w=0", "-d=1"));
            assertThat(run.exitCode()).as(run.output()).isEqualTo(1);
            assertThat(run.output()).contains("grpc-status \"12\"").doesNotContain("qps:");
        }
    }
}
