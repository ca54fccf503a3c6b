package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Running out of direct memory is one connection's problem: the reference server runs in a child JVM whose direct
 * memory is capped at 8 MiB (two of the pool's chunks), h2c connections that post to {@code /echo} and never open
 * their windows ask for more than that, and the allocation that fails ends the connection that asked for it.
 * A keep-alive HTTP/1.1 connection opened before the attack is still served after it, a new one is served, the
 * process lives on, and nothing reaches the end of a pipeline unhandled.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DirectMemoryExhaustionTest {
    private static final int GREEDY_CONNECTIONS = 4;
    private static final int STREAMS = 100;
    private static final int BODY_BYTES = 1 << 20;
    private static final long ATTACK_MILLIS = 20_000;

    private Process child;
    private Path stderr;
    private final List<AutoCloseable> sockets = new ArrayList<>();

    static List<String> transports() {
        return HttpServerTest.transports();
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable s : sockets) {
            s.close();
        }
        if (child != null) {
            child.destroy();
            if (!child.waitFor(30, TimeUnit.SECONDS)) {
                child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
        if (stderr != null) {
            Files.deleteIfExists(stderr);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void directMemoryExhaustionFailsOnlyTheGreedyConnection(String transport) throws Exception {
        stderr = Files.createTempFile("weir-direct-exhaustion", ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "-Xmx256m", "-XX:MaxDirectMemorySize=8m", "-Dio.weir.eventLoopThreads=1",
                "--enable-native-access=ALL-UNNAMED"));
        if (Runtime.version().feature() >= 23) {
            // Without Unsafe (off by default from JDK 24) direct buffers cannot be freed at once, so the allocator
            // prefers heap buffers and direct memory is never short: the attack needs the direct, pooled path.
            command.addAll(List.of("--sun-misc-unsafe-memory-access=allow", "-Dio.weir.tryUnsafe=true"));
        }
        command.addAll(List.of(HttpServer.class.getName(), "--port", "0", "--tls-port", "off", "--transport",
                transport));
        child = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), awaitPort(child));

        Socket kept = new Socket();
        sockets.add(kept);
        kept.connect(address, 10_000);
        kept.setSoTimeout(30_000);
        assertThat(plaintext(kept)).as("the kept connection before the attack").startsWith("HTTP/1.1 200");

        List<Http2Attacker> greedy = new ArrayList<>();
        List<CompletableFuture<Boolean>> ended = new ArrayList<>();
        for (int i = 0; i < GREEDY_CONNECTIONS; i++) {
            Http2Attacker a = new Http2Attacker(address);
            sockets.add(a);
            greedy.add(a);
            ended.add(CompletableFuture.supplyAsync(() -> postUntilClosed(a), daemonThread()));
        }
        int closedByServer = 0;
        for (CompletableFuture<Boolean> e : ended) {
            if (e.get(ATTACK_MILLIS + 30_000, TimeUnit.MILLISECONDS)) {
                closedByServer++;
            }
        }
        for (Http2Attacker a : greedy) {
            a.close();
        }

        String log = Files.readString(stderr);
        assertThat(closedByServer).as("greedy connections the server ended (log: %s)", log).isPositive();
        assertThat(child.isAlive()).as("the server process").isTrue();
        assertThat(plaintext(kept)).as("the kept connection after the attack").startsWith("HTTP/1.1 200");
        try (Socket fresh = new Socket()) {
            fresh.connect(address, 10_000);
            fresh.setSoTimeout(30_000);
            assertThat(plaintext(fresh)).as("a new connection after the attack").startsWith("HTTP/1.1 200");
        }
        log = Files.readString(stderr);
        assertThat(log).as("the server's log").doesNotContain("without being handled");
        System.out.printf("[%s] directMemoryExhaustion: %d of %d greedy connections ended by the server; log:%n%s%n",
                transport, closedByServer, GREEDY_CONNECTIONS, log.lines().limit(6).reduce("", (x, y) -> x + y + "\n"));
    }

    /**
     * Posts 1 MiB on each of 100 streams within the server's windows, never granting one; true when the server
     * ended the connection before the attack's time was up.
     */
    private static boolean postUntilClosed(Http2Attacker a) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ATTACK_MILLIS);
        try {
            a.handshake();
            a.readWindowUpdates();
            return a.echoFlood(STREAMS, BODY_BYTES, deadline);
        } catch (IOException e) {
            return true; // the server reset or closed the connection
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** One keep-alive GET /plaintext on {@code s}; the response head and body as text. */
    private static String plaintext(Socket s) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write("GET /plaintext HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = s.getInputStream();
        StringBuilder text = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0) {
            text.append((char) b);
            if (text.toString().endsWith("Hello, World!")) {
                break;
            }
        }
        return text.toString();
    }

    /** The port the child prints once it listens ("... on http://127.0.0.1:PORT/ ..."). */
    private static int awaitPort(Process p) throws Exception {
        BufferedReader lines = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<Integer> port = CompletableFuture.supplyAsync(() -> {
            try {
                String line;
                while ((line = lines.readLine()) != null) {
                    int at = line.indexOf("http://127.0.0.1:");
                    if (at >= 0) {
                        String rest = line.substring(at + "http://127.0.0.1:".length());
                        return Integer.parseInt(rest.substring(0, rest.indexOf('/')));
                    }
                }
                throw new IllegalStateException("the server exited before listening");
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, daemonThread());
        return port.get(60, TimeUnit.SECONDS);
    }

    private static java.util.concurrent.Executor daemonThread() {
        return r -> {
            Thread t = new Thread(r, "direct-memory-exhaustion");
            t.setDaemon(true);
            t.start();
        };
    }
}
