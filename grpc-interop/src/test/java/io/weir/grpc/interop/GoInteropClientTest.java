package io.weir.grpc.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.handler.ssl.SelfSignedCertificate;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** grpc-go's interop client (v1.85.0) runs every credential-free case against Weir's TestServiceServer. */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class GoInteropClientTest {
    static final List<String> CASES = InteropCases.NAMES;

    private static TestServiceServer plain;
    private static TestServiceServer tls;
    private static Path cert;
    private static Path client;

    @BeforeAll
    static void start() throws Exception {
        client = GoInterop.binary("client");
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        plain = TestServiceServer.start(loopback, null);
        SelfSignedCertificate self = SelfSignedCertificate.create("localhost");
        Path dir = Files.createDirectories(Path.of("target/interop-tls"));
        cert = Files.writeString(dir.resolve("cert.pem"), self.certificatePem());
        Path key = Files.writeString(dir.resolve("key.pem"), self.privateKeyPem());
        tls = TestServiceServer.start(loopback, TestServiceServer.serverContext(cert, key));
    }

    @AfterAll
    static void stop() throws Exception {
        if (plain != null) {
            plain.close();
        }
        if (tls != null) {
            tls.close();
        }
    }

    @ParameterizedTest
    @FieldSource("CASES")
    void overH2c(String testCase) throws Exception {
        assertPasses(testCase, plain.port(), List.of("--use_tls=false"));
    }

    @ParameterizedTest
    @FieldSource("CASES")
    void overTls(String testCase) throws Exception {
        // The test CA is the server's self-signed certificate; the host name it names is localhost.
        assertPasses(testCase, tls.port(), List.of("--use_tls=true", "--use_test_ca=true", "--ca_file=" + cert,
                "--server_host_override=localhost"));
    }

    private static void assertPasses(String testCase, int port, List<String> transport) throws Exception {
        List<String> command = new ArrayList<>(List.of(client.toString(), "--server_host=127.0.0.1",
                "--server_port=" + port, "--test_case=" + testCase, "--soak_iterations=10"));
        command.addAll(transport);
        GoInterop.Result result = GoInterop.run(120, Path.of("."), command);
        assertThat(result.exitCode()).as("%s exits 0; output:%n%s", testCase, result.output()).isZero();
    }
}
