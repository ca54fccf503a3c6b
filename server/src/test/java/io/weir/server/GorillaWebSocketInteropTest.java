package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Interop with a Go peer: a client written with {@code github.com/gorilla/websocket} v1.5.3, built here with
 * {@code go build}, against the example server's {@code /ws}: text and binary echo with and without
 * permessage-deflate, and the close handshake. The Go program is {@code gorilla_client.go} beside this class.
 * {@code .ci/run} installs Go; without it the test is skipped with that message.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class GorillaWebSocketInteropTest {
    static final String GORILLA = "github.com/gorilla/websocket";
    static final String GORILLA_VERSION = "v1.5.3";
    private static EventLoopGroup group;
    private static HttpServer server;
    private static int port;
    private static Path client;

    /** The go command: on PATH or in /usr/local/go/bin; null when absent. */
    static Path goCommand() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = Path.of(dir, "go");
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        Path usual = Path.of("/usr/local/go/bin/go");
        return Files.isExecutable(usual) ? usual : null;
    }

    /**
     * Writes {@code resource} (a Go main package beside this class) and a go.mod requiring gorilla/websocket into
     * {@code dir}, and builds it; returns the binary.
     */
    static Path buildGoProgram(Path go, String resource, Path dir) throws Exception {
        try (InputStream in = GorillaWebSocketInteropTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            Files.write(dir.resolve("main.go"), in.readAllBytes());
        }
        Files.writeString(dir.resolve("go.mod"), "module weirinterop\n\ngo 1.19\n\nrequire " + GORILLA + " "
                + GORILLA_VERSION + "\n");
        go(go, dir, 180, "mod", "tidy");
        Path binary = dir.resolve("client");
        go(go, dir, 240, "build", "-o", binary.toString(), ".");
        return binary;
    }

    /** Runs {@code go args...} in {@code dir} (no {@code -C}: Debian's Go 1.19 lacks it); fails on an error. */
    private static void go(Path go, Path dir, long timeoutSeconds, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(go.toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
            try (InputStream in = p.getInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(output lost: " + e + ")";
            }
        });
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("go " + String.join(" ", args) + " did not finish within " + timeoutSeconds
                    + " s");
        }
        assertThat(p.exitValue()).as("go %s:%n%s", String.join(" ", args), out.get(30, TimeUnit.SECONDS)).isZero();
    }

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        Path go = goCommand();
        Assumptions.assumeTrue(go != null, "Go is not installed (neither on PATH nor /usr/local/go/bin): the gorilla"
                + "/websocket interop test needs it; .ci/run installs it (apt-get install -y golang-go)");
        client = buildGoProgram(go, "gorilla_client.go", dir);
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        server = new HttpServer(group);
        port = ((InetSocketAddress) server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                .localAddress()).getPort();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (group != null) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest(name = "compression={0}")
    @ValueSource(booleans = {false, true})
    void gorillaClientAgainstTheExampleServer(boolean compression) throws Exception {
        ExternalTool.Result r = ExternalTool.run(120, List.of(client.toString(),
                "ws://127.0.0.1:" + port + WebSocketRoute.PATH, compression ? "deflate" : "none"));
        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains("text echoed", "binary echoed", "close code: 1000", "OK");
        if (compression) {
            assertThat(r.output()).contains("extensions: \"permessage-deflate");
        } else {
            assertThat(r.output()).contains("extensions: \"\"");
        }
    }
}
