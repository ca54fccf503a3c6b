package io.weir.handler.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.handler.codec.socksx.v4.Socks4CommandRequest;
import io.weir.handler.codec.socksx.v5.Socks5AddressType;
import io.weir.handler.codec.socksx.v5.Socks5CommandRequest;
import io.weir.handler.proxy.ProxyConnectException.Reason;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Interop with real proxies started on loopback as child processes: tinyproxy for HTTP CONNECT (with and without
 * Basic credentials) and microsocks for SOCKS5 (without and with username and password); microsocks speaks no
 * SOCKS4, so SOCKS4a goes through the test-side {@link TestSocksServer} built on codec-socks (which also runs
 * SOCKS5 with codec-socks on both ends, and serves curl as a real SOCKS client). Each test connects a Weir client
 * through the proxy to a Weir echo server and checks the bytes come back, or that a wrong password gives the typed
 * failure. A missing proxy fails with the command that installs it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProxyInteropTest {
    private static final long TIMEOUT_SECONDS = 20;
    private static final long READY_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static EventLoopGroup group;
    private static Channel echoServer;
    private static int echoPort;

    private final List<Process> processes = new ArrayList<>();
    private Path dir;

    @BeforeAll
    static void startEchoServer() throws Exception {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        echoServer = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ctx.writeAndFlush(msg);
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        ctx.close();
                    }
                }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        echoPort = ((InetSocketAddress) echoServer.localAddress()).getPort();
    }

    @AfterAll
    static void stopEchoServer() throws Exception {
        if (echoServer != null) {
            echoServer.close().sync();
        }
        if (group != null) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    @AfterEach
    void stopProxies() throws Exception {
        for (Process p : processes) {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    // ---------------------------------------------------------------- HTTP CONNECT through tinyproxy

    @Test
    void httpConnectThroughTinyproxy() throws Exception {
        InetSocketAddress proxy = startTinyproxy(null);
        Echoed e = roundTrip(new HttpProxyHandler(proxy), InetSocketAddress.createUnresolved("localhost", echoPort));
        assertThat(e.event().protocol()).isEqualTo("http");
        assertThat(e.event().proxyAddress()).isEqualTo(proxy);
        // Bootstrap resolved the name for the pipeline, which still carries it; the name is what tinyproxy got.
        InetSocketAddress destination = (InetSocketAddress) e.event().destinationAddress();
        assertThat(destination.getHostString()).isEqualTo("localhost");
        assertThat(destination.getPort()).isEqualTo(echoPort);
        assertThat(logs()).contains("CONNECT localhost:" + echoPort);
    }

    @Test
    void httpConnectWithBasicCredentialsThroughTinyproxy() throws Exception {
        InetSocketAddress proxy = startTinyproxy("alice s3cret");
        Echoed e = roundTrip(new HttpProxyHandler(proxy, "alice", "s3cret"), loopback(echoPort));
        assertThat(e.event().authScheme()).isEqualTo("basic");
    }

    @Test
    void aWrongOrMissingPasswordAtTinyproxyIsAuthRefused() throws Exception {
        InetSocketAddress proxy = startTinyproxy("alice s3cret");
        ProxyConnectException e = failure(new HttpProxyHandler(proxy, "alice", "wrong"), loopback(echoPort));
        assertThat(e.reason()).as(e.getMessage()).isEqualTo(Reason.AUTH_REFUSED);
        // tinyproxy answers wrong credentials with 401, and a request without any with 407.
        assertThat(e.replyCode()).isEqualTo(401);
        ProxyConnectException none = failure(new HttpProxyHandler(proxy), loopback(echoPort));
        assertThat(none.reason()).isEqualTo(Reason.AUTH_REFUSED);
        assertThat(none.replyCode()).isEqualTo(407);
        assertThat(none.getMessage()).contains("no credentials were sent");
    }

    @Test
    void tinyproxyRefusingAPortItDoesNotAllowIsRefused() throws Exception {
        InetSocketAddress proxy = startTinyproxy(null);
        int otherPort = freeLoopbackPort();
        ProxyConnectException e = failure(new HttpProxyHandler(proxy), loopback(otherPort));
        assertThat(e.reason()).isEqualTo(Reason.REFUSED);
        assertThat(e.replyCode()).isEqualTo(403);
    }

    // ---------------------------------------------------------------- SOCKS5 through microsocks

    @Test
    void socks5ThroughMicrosocksWithAHostNameTheProxyResolves() throws Exception {
        InetSocketAddress proxy = startMicrosocks(null, null);
        Echoed e = roundTrip(new Socks5ProxyHandler(proxy), InetSocketAddress.createUnresolved("localhost",
                echoPort));
        assertThat(e.event().authScheme()).isEqualTo("none");
    }

    @Test
    void socks5WithPasswordThroughMicrosocks() throws Exception {
        InetSocketAddress proxy = startMicrosocks("alice", "s3cret");
        Echoed e = roundTrip(new Socks5ProxyHandler(proxy, "alice", "s3cret"), loopback(echoPort));
        assertThat(e.event().authScheme()).isEqualTo("password");
    }

    @Test
    void aWrongPasswordAtMicrosocksIsAuthRefused() throws Exception {
        InetSocketAddress proxy = startMicrosocks("alice", "s3cret");
        ProxyConnectException e = failure(new Socks5ProxyHandler(proxy, "alice", "wrong"), loopback(echoPort));
        assertThat(e.reason()).isEqualTo(Reason.AUTH_REFUSED);
        assertThat(e.replyCode()).isNotZero();
    }

    @Test
    void microsocksWantingCredentialsWeDoNotHaveIsAuthRefused() throws Exception {
        InetSocketAddress proxy = startMicrosocks("alice", "s3cret");
        ProxyConnectException e = failure(new Socks5ProxyHandler(proxy), loopback(echoPort));
        assertThat(e.reason()).isEqualTo(Reason.AUTH_REFUSED);
        assertThat(e.replyCode()).isEqualTo(255);
    }

    @Test
    void microsocksReportingAClosedPortIsRefused() throws Exception {
        InetSocketAddress proxy = startMicrosocks(null, null);
        ProxyConnectException e = failure(new Socks5ProxyHandler(proxy), loopback(freeLoopbackPort()));
        assertThat(e.reason()).isEqualTo(Reason.REFUSED);
        assertThat(e.replyCode()).isNotZero();
    }

    // ---------------------------------------------------------------- codec-socks on both ends

    @Test
    void socks4aThroughTheWeirSocksServer() throws Exception {
        try (TestSocksServer server = new TestSocksServer(group, null, null)) {
            roundTrip(new Socks4ProxyHandler(server.address(), "fred"),
                    InetSocketAddress.createUnresolved("localhost", echoPort));
            Socks4CommandRequest seen = (Socks4CommandRequest) server.requests.poll(TIMEOUT_SECONDS,
                    TimeUnit.SECONDS);
            assertThat(seen).isEqualTo(new Socks4CommandRequest(
                    io.weir.handler.codec.socksx.v4.Socks4CommandType.CONNECT, "localhost", echoPort, "fred"));
            assertThat(seen.isSocks4a()).as("the name travelled unresolved").isTrue();
        }
    }

    @Test
    void socks5WithPasswordThroughTheWeirSocksServer() throws Exception {
        try (TestSocksServer server = new TestSocksServer(group, "alice", "s3cret")) {
            roundTrip(new Socks5ProxyHandler(server.address(), "alice", "s3cret"),
                    InetSocketAddress.createUnresolved("localhost", echoPort));
            assertThat(server.requests).last().isInstanceOfSatisfying(Socks5CommandRequest.class, r -> {
                assertThat(r.addressType()).isEqualTo(Socks5AddressType.DOMAIN);
                assertThat(r.host()).isEqualTo("localhost");
            });
            ProxyConnectException e = failure(new Socks5ProxyHandler(server.address(), "alice", "wrong"),
                    loopback(echoPort));
            assertThat(e.reason()).isEqualTo(Reason.AUTH_REFUSED);
        }
    }

    /**
     * The other direction: curl, a real SOCKS client, through the server-side codecs of codec-socks (in every
     * scheme curl speaks) to a Weir HTTP responder. Where curl resolves the name itself the server sees an address,
     * where it leaves it to the proxy (socks4a, socks5h) the name.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"socks4", "socks4a", "socks5", "socks5h", "socks5h+password"})
    void curlThroughTheWeirSocksServer(String scheme) throws Exception {
        String curl = require("curl");
        boolean password = scheme.endsWith("+password");
        Channel hello = startHelloServer();
        try (TestSocksServer server = new TestSocksServer(group, password ? "alice" : null,
                password ? "s3cret" : null)) {
            int helloPort = ((InetSocketAddress) hello.localAddress()).getPort();
            String proxy = scheme.replace("+password", "") + "://" + (password ? "alice:s3cret@" : "")
                    + "127.0.0.1:" + server.address().getPort();
            Process p = new ProcessBuilder(curl, "-sS", "--max-time", "20", "--proxy", proxy,
                    "http://localhost:" + helloPort + "/").redirectErrorStream(true).start();
            processes.add(p);
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as("curl: %s", out).isZero();
            assertThat(out).isEqualTo("hello");
            boolean proxyResolves = scheme.startsWith("socks4a") || scheme.startsWith("socks5h");
            String host = proxyResolves ? "localhost" : "127.0.0.1";
            Object command = server.requests.stream()
                    .filter(r -> r instanceof Socks4CommandRequest || r instanceof Socks5CommandRequest)
                    .findFirst().orElseThrow();
            assertThat(command instanceof Socks4CommandRequest r4 ? r4.host() : ((Socks5CommandRequest) command).host())
                    .isEqualTo(host);
        } finally {
            hello.close().sync();
        }
    }

    /** A Weir server that answers whatever it reads with a fixed HTTP response, then closes. */
    private static Channel startHelloServer() throws InterruptedException {
        return new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelHandler() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ((ByteBuf) msg).release();
                        ctx.writeAndFlush(Unpooled.copiedBuffer("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n"
                                + "Connection: close\r\n\r\nhello", StandardCharsets.US_ASCII))
                                .addListener(ChannelFutureListener.CLOSE);
                    }
                }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
    }

    // ---------------------------------------------------------------- the client

    record Echoed(String text, ProxyConnectionEvent event) {
    }

    /** Connects through {@code handler}, sends a line and waits for it to come back from the echo server. */
    private Echoed roundTrip(ProxyHandler handler, SocketAddress destination) throws Exception {
        String line = "hello through " + handler.protocol() + ", ünïcode\n";
        byte[] expected = line.getBytes(StandardCharsets.UTF_8);
        CompletableFuture<String> echoed = new CompletableFuture<>();
        CompletableFuture<ProxyConnectionEvent> event = new CompletableFuture<>();
        ChannelFuture connect = connect(handler, new ChannelHandler() {
            private final StringBuilder received = new StringBuilder();
            private int bytes;

            @Override
            public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                if (evt instanceof ProxyConnectionEvent e) {
                    event.complete(e);
                }
            }

            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                ctx.writeAndFlush(Unpooled.copiedBuffer(expected));
            }

            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ByteBuf b = (ByteBuf) msg;
                try {
                    bytes += b.readableBytes();
                    received.append(b.toString(StandardCharsets.ISO_8859_1));
                } finally {
                    b.release();
                }
                if (bytes >= expected.length) {
                    echoed.complete(new String(received.toString().getBytes(StandardCharsets.ISO_8859_1),
                            StandardCharsets.UTF_8));
                }
            }

            @Override
            public void channelInactive(ChannelHandlerContext ctx) {
                echoed.completeExceptionally(new AssertionError("closed after " + bytes + " byte(s)"));
            }
        }, destination);
        Channel ch = connect.channel();
        try {
            assertThat(connect.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("connect done").isTrue();
            assertThat(connect.cause()).as("connect through %s; %s", handler.protocol(), logs()).isNull();
            assertThat(echoed.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(line);
            assertThat(ch.pipeline().context(handler)).as("the proxy handler left the pipeline").isNull();
            assertThat(ch.pipeline().names()).noneMatch(n -> n.contains("Socks") || n.contains("Http"));
            return new Echoed(line, event.getNow(null));
        } finally {
            ch.close().sync();
        }
    }

    /** Connects through {@code handler}, which must fail; the failure. */
    private ProxyConnectException failure(ProxyHandler handler, SocketAddress destination) throws Exception {
        ChannelFuture connect = connect(handler, new ChannelHandler() {
            @Override
            public void channelActive(ChannelHandlerContext ctx) {
                throw new AssertionError("the application saw channelActive on a failed proxy connect");
            }
        }, destination);
        assertThat(connect.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("connect done").isTrue();
        assertThat(connect.cause()).as("the connect's failure; %s", logs()).isInstanceOf(ProxyConnectException.class);
        connect.channel().closeFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(connect.channel().isOpen()).isFalse();
        return (ProxyConnectException) connect.cause();
    }

    private static ChannelFuture connect(ProxyHandler handler, ChannelHandler app, SocketAddress destination) {
        return new Bootstrap().group(group).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(handler, app);
                    }
                }).connect(destination);
    }

    // ---------------------------------------------------------------- the proxies

    /** tinyproxy on a free loopback port, CONNECT allowed to the echo server's port only; basicAuth: "user pass". */
    private InetSocketAddress startTinyproxy(String basicAuth) throws Exception {
        String tinyproxy = require("tinyproxy");
        int port = freeLoopbackPort();
        Path config = tempDir().resolve("tinyproxy.conf");
        // tinyproxy lets CONNECT reach only the ports ConnectPort names (443 and 563 when none is named).
        Files.writeString(config, String.join("\n",
                "Port " + port,
                "Listen 127.0.0.1",
                "Allow 127.0.0.1",
                "Timeout 30",
                "MaxClients 16",
                "LogLevel Info",
                "ConnectPort " + echoPort,
                basicAuth != null ? "BasicAuth " + basicAuth : "",
                ""));
        return start(port, tinyproxy, "-d", "-c", config.toString());
    }

    /** microsocks (SOCKS5 only) on a free loopback port, with a username and password unless null. */
    private InetSocketAddress startMicrosocks(String user, String password) throws Exception {
        String microsocks = require("microsocks");
        int port = freeLoopbackPort();
        List<String> command = new ArrayList<>(List.of(microsocks, "-i", "127.0.0.1", "-p", Integer.toString(port)));
        if (user != null) {
            command.addAll(List.of("-u", user, "-P", password));
        }
        return start(port, command.toArray(String[]::new));
    }

    /** Starts {@code command} and returns once something accepts connections on {@code port}, or fails. */
    private InetSocketAddress start(int port, String... command) throws Exception {
        Path log = tempDir().resolve(new File(command[0]).getName() + ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(process);
        InetSocketAddress address = loopback(port);
        long deadline = System.nanoTime() + READY_NANOS;
        for (;;) {
            try (Socket probe = new Socket()) {
                probe.connect(address, 1_000);
                return address;
            } catch (IOException refused) {
                if (!process.isAlive()) {
                    throw new AssertionError(command[0] + " exited with " + process.exitValue() + ": "
                            + Files.readString(log));
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError(command[0] + " did not listen on " + address + " within 10 s: "
                            + Files.readString(log));
                }
                // A refused connect answers at once: pause briefly rather than spin on the CPU.
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
        }
    }

    private static String require(String name) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin") + File.pathSeparator + "/usr/sbin"
                + File.pathSeparator + "/usr/local/sbin";
        for (String d : path.split(File.pathSeparator)) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        throw new AssertionError(name + " is not installed (looked on the PATH, in /usr/sbin and /usr/local/sbin); "
                + "install it: apt-get install -y " + name);
    }

    private Path tempDir() throws IOException {
        if (dir == null) {
            dir = Files.createTempDirectory("weir-proxy");
        }
        return dir;
    }

    private String logs() {
        StringBuilder sb = new StringBuilder("proxy logs:");
        if (dir != null) {
            try (Stream<Path> files = Files.list(dir)) {
                for (Path p : files.filter(p -> p.toString().endsWith(".log")).toList()) {
                    sb.append("\n--- ").append(p.getFileName()).append('\n').append(Files.readString(p));
                }
            } catch (IOException e) {
                sb.append(" (unreadable: ").append(e).append(')');
            }
        }
        return sb.toString();
    }

    private static InetSocketAddress loopback(int port) {
        return new InetSocketAddress("127.0.0.1", port);
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
