package io.weir.grpc.interop;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The two main classes as other implementations' tools run them: flags, and the exit code as the verdict. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class TestServiceMainsTest {
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private static GoInterop.Result java(Class<?> main, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return GoInterop.run(120, Path.of("."), command);
    }

    @Test
    void clientExitsZeroWhenTheCasePasses() throws Exception {
        try (TestServiceServer server = TestServiceServer.start(LOOPBACK, null)) {
            GoInterop.Result result = java(TestServiceClient.class, "--server_host=localhost",
                    "--server_port=" + server.port(), "--use_tls=false", "--test_case=large_unary");
            assertThat(result.exitCode()).as(result.output()).isZero();
            assertThat(result.output()).contains("PASSED large_unary");
        }
    }

    @Test
    void clientExitsOneWhenTheCaseFails() throws Exception {
        // A server without TestService: every call is UNIMPLEMENTED, so empty_unary fails.
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        HttpServer server = new HttpServer(group).grpc(GrpcServices.builder().build());
        try {
            Channel bound = server.start(LOOPBACK);
            GoInterop.Result result = java(TestServiceClient.class, "--server_host=localhost",
                    "--server_port=" + ((InetSocketAddress) bound.localAddress()).getPort(), "--test_case=empty_unary");
            assertThat(result.exitCode()).as(result.output()).isEqualTo(1);
            assertThat(result.output()).contains("FAILED empty_unary").contains("UNIMPLEMENTED");
        } finally {
            server.close();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void badFlagsExitTwo() throws Exception {
        GoInterop.Result unknownCase = java(TestServiceClient.class, "--test_case=no_such_case");
        assertThat(unknownCase.exitCode()).isEqualTo(2);
        assertThat(unknownCase.output()).contains("no_such_case");
        GoInterop.Result unknownFlag = java(TestServiceClient.class, "--server_prot=1");
        assertThat(unknownFlag.exitCode()).isEqualTo(2);
        assertThat(unknownFlag.output()).contains("server_prot");
    }
}
