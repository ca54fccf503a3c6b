package io.weir.grpc.interop;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.weir.handler.ssl.SelfSignedCertificate;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The interop cases over grpc-java's own client (Netty) against Weir's TestServiceServer, plaintext and TLS: the
 * cases are checked against the reference client, and the server against them.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class InteropCasesTest {
    static final List<String> CASES = InteropCases.NAMES;

    private static TestServiceServer plain;
    private static TestServiceServer tls;
    private static ManagedChannel plainChannel;
    private static ManagedChannel tlsChannel;

    @BeforeAll
    static void start() throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        plain = TestServiceServer.start(loopback, null);
        SelfSignedCertificate self = SelfSignedCertificate.create("localhost");
        Path dir = Files.createDirectories(Path.of("target/interop-cases-tls"));
        Path cert = Files.writeString(dir.resolve("cert.pem"), self.certificatePem());
        Path key = Files.writeString(dir.resolve("key.pem"), self.privateKeyPem());
        tls = TestServiceServer.start(loopback, TestServiceServer.serverContext(cert, key));
        plainChannel = NettyChannelBuilder.forAddress("127.0.0.1", plain.port()).usePlaintext().build();
        tlsChannel = NettyChannelBuilder.forAddress("127.0.0.1", tls.port()).overrideAuthority("localhost")
                .sslContext(GrpcSslContexts.forClient().trustManager(cert.toFile()).build()).build();
    }

    @AfterAll
    static void stop() throws Exception {
        for (ManagedChannel c : new ManagedChannel[] {plainChannel, tlsChannel}) {
            if (c != null) {
                c.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
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
        new InteropCases(plainChannel, 10).run(testCase);
    }

    @ParameterizedTest
    @FieldSource("CASES")
    void overTls(String testCase) throws Exception {
        new InteropCases(tlsChannel, 10).run(testCase);
    }

    @Test
    void unknownCaseIsRefusedByName() {
        assertThatThrownBy(() -> new InteropCases(plainChannel, 1).run("no_such_case"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no_such_case");
    }
}
