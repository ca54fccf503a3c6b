package io.weir.grpc.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.health.v1.HealthCheckResponse;
import io.weir.handler.ssl.SelfSignedCertificate;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** grpc-health-probe (v0.4.63), the probe Kubernetes users run, against the health service Weir serves. */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class GrpcHealthProbeTest {
    /** The probe's defaults (1 s) are for a warm server on an idle machine; CI's first TLS handshake may be slower. */
    private static final String TIMEOUTS = "-connect-timeout=20s";
    private static final InetSocketAddress LOOPBACK = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    @Test
    void probeSeesServingThenNotServingOverH2c() throws Exception {
        Path probe = GoInterop.healthProbe();
        try (TestServiceServer server = TestServiceServer.start(LOOPBACK, null)) {
            String addr = "-addr=127.0.0.1:" + server.port();
            GoInterop.Result serving = GoInterop.run(60, Path.of("."), List.of(probe.toString(), TIMEOUTS, addr));
            assertThat(serving.exitCode()).as(serving.output()).isZero();
            assertThat(serving.output()).contains("status: SERVING");
            GoInterop.Result service = GoInterop.run(60, Path.of("."), List.of(probe.toString(), TIMEOUTS, addr,
                    "-service=grpc.testing.TestService"));
            assertThat(service.exitCode()).as(service.output()).isZero();

            server.health().setStatus("grpc.testing.TestService", HealthCheckResponse.ServingStatus.NOT_SERVING);
            GoInterop.Result notServing = GoInterop.run(60, Path.of("."), List.of(probe.toString(), TIMEOUTS, addr,
                    "-service=grpc.testing.TestService"));
            // The probe's documented exit code for a service that answered NOT_SERVING.
            assertThat(notServing.exitCode()).as(notServing.output()).isEqualTo(4);
            GoInterop.Result unknown = GoInterop.run(60, Path.of("."), List.of(probe.toString(), TIMEOUTS, addr,
                    "-service=no.such.Service"));
            assertThat(unknown.exitCode()).as("NOT_FOUND for a service nobody registered: %s", unknown.output())
                    .isNotZero();
        }
    }

    @Test
    void probeSeesServingOverTls() throws Exception {
        Path probe = GoInterop.healthProbe();
        SelfSignedCertificate self = SelfSignedCertificate.create("localhost");
        Path dir = Files.createDirectories(Path.of("target/health-probe-tls"));
        Path cert = Files.writeString(dir.resolve("cert.pem"), self.certificatePem());
        Path key = Files.writeString(dir.resolve("key.pem"), self.privateKeyPem());
        try (TestServiceServer server = TestServiceServer.start(LOOPBACK,
                TestServiceServer.serverContext(cert, key))) {
            GoInterop.Result serving = GoInterop.run(60, Path.of("."), List.of(probe.toString(), TIMEOUTS,
                    "-addr=127.0.0.1:" + server.port(), "-tls", "-tls-ca-cert=" + cert,
                    "-tls-server-name=localhost"));
            assertThat(serving.exitCode()).as(serving.output()).isZero();
            assertThat(serving.output()).contains("status: SERVING");
        }
    }
}
