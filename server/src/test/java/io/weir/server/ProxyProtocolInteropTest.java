package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.handler.ssl.InsecureTrustManagerFactory;
import java.io.File;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The reference server behind a real haproxy ({@code send-proxy}, {@code send-proxy-v2}): {@code /headers}
 * reports the client's own address, which the server learns only from the PROXY header; a connection that skips
 * the balancer (no header) is refused.
 */
class ProxyProtocolInteropTest {
    private static final int TIMEOUT_SECONDS = 30;

    private EventLoopGroup group;
    private HttpServer server;
    private InetSocketAddress plain;
    private InetSocketAddress secure;
    private Path dir;
    private Path pidFile;

    @BeforeEach
    void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        server = new HttpServer(group).proxyProtocol(true);
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        plain = (InetSocketAddress) server.start(any).localAddress();
        secure = (InetSocketAddress) server.startTls(any).localAddress();
        dir = Files.createTempDirectory("weir-haproxy");
        pidFile = dir.resolve("haproxy.pid");
    }

    @AfterEach
    void stop() throws Exception {
        if (Files.exists(pidFile)) {
            for (String pid : Files.readString(pidFile).trim().split("\\s+")) {
                ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
        server.close();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }

    private static String haproxy() {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin") + ":/usr/sbin:/usr/local/sbin";
        for (String d : path.split(File.pathSeparator)) {
            Path p = Path.of(d, "haproxy");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        throw new AssertionError("haproxy is not installed; install it: apt-get install -y haproxy");
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * Starts haproxy in front of {@code backend} and returns its front port. With {@code -D} haproxy binds its
     * listeners, then detaches: the launcher's exit means the front port is open.
     */
    private int haproxyInFront(InetSocketAddress backend, String sendProxy) throws Exception {
        int front = freePort();
        Path config = dir.resolve("haproxy.cfg");
        Files.writeString(config, String.join("\n",
                "global",
                "  maxconn 100",
                "defaults",
                "  mode tcp",
                "  timeout connect 5s",
                "  timeout client 30s",
                "  timeout server 30s",
                "frontend front",
                "  bind 127.0.0.1:" + front,
                "  default_backend weir",
                "backend weir",
                "  server weir 127.0.0.1:" + backend.getPort() + " " + sendProxy,
                ""));
        Process launcher = new ProcessBuilder(haproxy(), "-D", "-p", pidFile.toString(), "-f", config.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("haproxy.log").toFile()).start();
        assertThat(launcher.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("haproxy started").isTrue();
        assertThat(launcher.exitValue()).as("haproxy's exit; its log: %s",
                Files.readString(dir.resolve("haproxy.log"))).isZero();
        return front;
    }

    private static String get(Socket s, String path) throws Exception {
        s.setSoTimeout(TIMEOUT_SECONDS * 1000);
        s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        InputStream in = s.getInputStream();
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0}, tls={1}")
    @CsvSource({"send-proxy, false", "send-proxy-v2, false", "send-proxy-v2, true"})
    void headersShowTheClientsAddressBehindHaproxy(String sendProxy, boolean tls) throws Exception {
        int front = haproxyInFront(tls ? secure : plain, sendProxy);
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), front);
        int clientPort = socket.getLocalPort();
        if (tls) {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, InsecureTrustManagerFactory.INSTANCE.getTrustManagers(), null);
            SSLSocket ssl = (SSLSocket) context.getSocketFactory().createSocket(socket, "localhost", front, true);
            ssl.setEnabledProtocols(new String[] {"TLSv1.3"});
            socket = ssl;
        }
        try (Socket s = socket) {
            String response = get(s, "/headers");
            assertThat(response).startsWith("HTTP/1.1 200")
                    .as("the client's own address, not haproxy's (which connects from another port)")
                    .contains("\"remote\":\"127.0.0.1:" + clientPort + "\"");
        }
    }

    @ParameterizedTest(name = "tls={0}")
    @CsvSource({"false", "true"})
    void aConnectionWithoutTheHeaderIsRefused(boolean tls) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), (tls ? secure : plain).getPort())) {
            String response;
            try {
                response = get(s, "/headers");
            } catch (SocketException reset) {
                response = ""; // closed with our request unread: a reset
            }
            assertThat(response).as("nothing served to a client that skipped the balancer").isEmpty();
        }
    }
}
