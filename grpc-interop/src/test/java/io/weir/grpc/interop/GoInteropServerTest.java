package io.weir.grpc.interop;

import io.grpc.ManagedChannel;
import io.weir.grpc.WeirGrpcChannel;
import io.weir.handler.ssl.SelfSignedCertificate;
import io.weir.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The reverse direction: Weir's client (WeirGrpcChannel) runs every case against grpc-go's interop server. */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class GoInteropServerTest {
    static final List<String> CASES = InteropCases.NAMES;

    private static Process plainServer;
    private static Process tlsServer;
    private static ManagedChannel plain;
    private static ManagedChannel tls;

    @BeforeAll
    static void start() throws Exception {
        Path server = GoInterop.binary("server");
        SelfSignedCertificate self = SelfSignedCertificate.create("localhost");
        Path dir = Files.createDirectories(Path.of("target/go-server-tls"));
        Path cert = Files.writeString(dir.resolve("cert.pem"), self.certificatePem());
        Path key = Files.writeString(dir.resolve("key.pem"), self.privateKeyPem());
        int plainPort = freePort();
        int tlsPort = freePort();
        plainServer = GoInterop.start(List.of(server.toString(), "--port=" + plainPort, "--use_tls=false"));
        tlsServer = GoInterop.start(List.of(server.toString(), "--port=" + tlsPort, "--use_tls=true",
                "--tls_cert_file=" + cert, "--tls_key_file=" + key));
        awaitListening(plainPort, plainServer);
        awaitListening(tlsPort, tlsServer);
        plain = WeirGrpcChannel.forAddress("localhost", plainPort).build();
        tls = WeirGrpcChannel.forAddress("localhost", tlsPort)
                .tls(SslContextBuilder.forClient().applicationProtocols("h2").trustManager(cert).build()).build();
    }

    @AfterAll
    static void stop() throws Exception {
        for (ManagedChannel c : new ManagedChannel[] {plain, tls}) {
            if (c != null) {
                c.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        }
        for (Process p : new Process[] {plainServer, tlsServer}) {
            if (p != null) {
                p.destroy();
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
        }
    }

    @ParameterizedTest
    @FieldSource("CASES")
    void overH2c(String testCase) throws Exception {
        new InteropCases(plain, 10).run(testCase);
    }

    @ParameterizedTest
    @FieldSource("CASES")
    void overTls(String testCase) throws Exception {
        new InteropCases(tls, 10).run(testCase);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** Connects until the server listens: at most 60 s, failing at once if it exited. */
    private static void awaitListening(int port, Process server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            if (!server.isAlive()) {
                throw new AssertionError("grpc-go's interop server exited with " + server.exitValue());
            }
            try (Socket s = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("grpc-go's interop server is not listening on " + port + " after 60 s");
                }
                server.waitFor(100, TimeUnit.MILLISECONDS);
            }
        }
    }
}
