package io.weir.handler.codec.haproxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Interop with the real HAProxy: a Weir server with the decoder on a loopback port is HAProxy's backend
 * ({@code send-proxy} for version 1, {@code send-proxy-v2} with CRC32C and a unique ID for version 2), a plain
 * socket connects to HAProxy's frontend, and the server must see that socket's address and port as the client's,
 * and its bytes intact. HAProxy's health checks (a PROXY line in version 1, a LOCAL header in version 2) reach the
 * same server; the first one tells the test that HAProxy is listening.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HAProxyInteropTest {
    static final String INSTALL = "apt-get install -y haproxy";
    private static final long TIMEOUT_SECONDS = 30;
    private static String haproxy;
    private static EventLoopGroup group;

    @BeforeAll
    static void setUp() {
        haproxy = requireHAProxy();
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (group != null) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Debian installs haproxy in /usr/sbin, which is not on every user's PATH. */
    private static String requireHAProxy() {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin") + File.pathSeparator
                + "/usr/sbin" + File.pathSeparator + "/usr/local/sbin";
        for (String dir : path.split(File.pathSeparator)) {
            Path p = Path.of(dir, "haproxy");
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        throw new AssertionError("haproxy is not installed (looked on the PATH, in /usr/sbin and /usr/local/sbin); "
                + "install it: " + INSTALL);
    }

    /** What the server saw on a connection that sent a line. */
    record Seen(HAProxyMessage message, SocketAddress clientAddress, String line) {
    }

    /**
     * Records each connection's header and first line, answers the line with "ok", and keeps every exception but
     * the resets HAProxy ends its health checks with. Event loop only.
     */
    static final class Recorder implements ChannelHandler {
        private final CompletableFuture<HAProxyMessage> firstHeader;
        private final BlockingQueue<Seen> seen;
        private final BlockingQueue<Throwable> errors;
        private final ByteArrayOutputStream received = new ByteArrayOutputStream();
        private HAProxyMessage message;

        Recorder(CompletableFuture<HAProxyMessage> firstHeader, BlockingQueue<Seen> seen,
                BlockingQueue<Throwable> errors) {
            this.firstHeader = firstHeader;
            this.seen = seen;
            this.errors = errors;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (!(cause instanceof IOException)) {
                errors.add(cause);
            }
            ctx.close();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HAProxyMessage m) {
                message = m;
                firstHeader.complete(m);
                return;
            }
            ByteBuf buf = (ByteBuf) msg;
            try {
                received.writeBytes(ByteBufUtil.getBytes(buf));
            } finally {
                buf.release();
            }
            String text = received.toString(StandardCharsets.UTF_8);
            int lf = text.indexOf('\n');
            if (lf >= 0) {
                seen.add(new Seen(message, HAProxyMessageDecoder.clientAddress(ctx.channel()), text.substring(0, lf)));
                ctx.writeAndFlush(Unpooled.copiedBuffer("ok\n", StandardCharsets.US_ASCII));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"send-proxy", "send-proxy-v2"})
    void weirSeesTheClientBehindHAProxy(String sendProxy) throws Exception {
        boolean v2 = sendProxy.endsWith("v2");
        CompletableFuture<HAProxyMessage> firstHeader = new CompletableFuture<>();
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        BlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HAProxyMessageDecoder(), new Recorder(firstHeader, seen, errors));
                    }
                }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        Path dir = Files.createTempDirectory("weir-haproxy");
        Process process = null;
        try {
            int weirPort = ((InetSocketAddress) server.localAddress()).getPort();
            int frontendPort = freeLoopbackPort();
            Path config = dir.resolve("haproxy.cfg");
            Files.writeString(config, String.join("\n",
                    "defaults",
                    "    mode tcp",
                    "    timeout connect 5s",
                    "    timeout client 60s",
                    "    timeout server 60s",
                    "frontend fe",
                    "    bind 127.0.0.1:" + frontendPort,
                    "    unique-id-format weir-%ci-%cp",
                    "    default_backend be",
                    "backend be",
                    "    server s1 127.0.0.1:" + weirPort + " " + sendProxy
                            + (v2 ? " proxy-v2-options crc32c,unique-id" : "") + " check inter 1s",
                    ""));
            Path log = dir.resolve("haproxy.log");
            process = new ProcessBuilder(haproxy, "-f", config.toString(), "-db").redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            process.onExit().thenRun(() -> firstHeader.completeExceptionally(
                    new AssertionError("haproxy exited: " + read(log))));
            // HAProxy checks its servers only once its listeners are bound: the first header means it is up.
            HAProxyMessage check = awaitFirstHeader(firstHeader, log);
            assertThat(check.command()).isEqualTo(v2 ? HAProxyCommand.LOCAL : HAProxyCommand.PROXY);

            try (Socket client = new Socket()) {
                client.connect(new InetSocketAddress("127.0.0.1", frontendPort), 10_000);
                client.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
                OutputStream out = client.getOutputStream();
                out.write("hello from the client, ünïcode\n".getBytes(StandardCharsets.UTF_8));
                out.flush();
                Seen s = seen.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
                assertThat(s).as("the line relayed by haproxy; its log: %s", read(log)).isNotNull();
                InetSocketAddress clientAddress = (InetSocketAddress) client.getLocalSocketAddress();
                assertThat(s.line()).isEqualTo("hello from the client, ünïcode");
                assertThat(s.clientAddress()).isEqualTo(clientAddress);
                HAProxyMessage m = s.message();
                assertThat(m.version()).isEqualTo(v2 ? HAProxyProtocolVersion.V2 : HAProxyProtocolVersion.V1);
                assertThat(m.command()).isEqualTo(HAProxyCommand.PROXY);
                assertThat(m.proxiedProtocol()).isEqualTo(HAProxyProxiedProtocol.TCP4);
                assertThat(m.sourceSocketAddress()).isEqualTo(clientAddress);
                assertThat(m.destinationSocketAddress()).isEqualTo(new InetSocketAddress("127.0.0.1", frontendPort));
                if (v2) {
                    assertThat(m.hasCrc32c()).isTrue();
                    assertThat(new String(m.uniqueId(), StandardCharsets.US_ASCII))
                            .isEqualTo("weir-127.0.0.1-" + clientAddress.getPort());
                }
                // And the answer travels back through haproxy.
                InputStream in = client.getInputStream();
                assertThat(new String(in.readNBytes(3), StandardCharsets.US_ASCII)).isEqualTo("ok\n");
            }
            assertThat(errors).as("exceptions on the server, health checks included").isEmpty();
        } finally {
            if (process != null) {
                process.destroy();
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
            server.close().sync();
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static HAProxyMessage awaitFirstHeader(CompletableFuture<HAProxyMessage> firstHeader, Path log)
            throws Exception {
        try {
            return firstHeader.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("haproxy made no health check within " + TIMEOUT_SECONDS + " s; its log: "
                    + read(log), e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String read(Path log) {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
