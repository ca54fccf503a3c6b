package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.PooledByteBufAllocator;
import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.nio.NioIoHandler;
import io.weir.handler.codec.http2.Http2FrameCodec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Peers that send and never read what they are sent, against the reference server on one event loop, over real
 * sockets on NIO and epoll: what the server holds for them stays bounded (its pooled direct memory is sampled
 * throughout), and a normal client on HTTP/1.1, h2c and HTTP/2 over TLS is served the whole time, and right after
 * the attackers leave, without a single failure.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NeverReadingPeersTest {
    private static final long MIB = 1 << 20;
    private static final long ATTACK_MILLIS = 8_000;
    private static final long HOLD_MILLIS = 3_000;
    private static final long AFTER_MILLIS = 2_000;
    private static final int ECHO_CONNECTIONS = 20;
    private static final int ECHO_STREAMS = 100;
    private static final int BODY_BYTES = 1 << 20;
    /** RFC 9113 §4.2: the SETTINGS_MAX_FRAME_SIZE every peer starts with. */
    private static final int DEFAULT_MAX_FRAME_BYTES = 16_384;
    /** Read buffers and cumulations of one connection, beyond the frames it holds. */
    private static final long SOCKET_BUFFER_ALLOWANCE_BYTES = 256 * 1024;

    private EventLoopGroup group;
    private HttpServer server;
    private InetSocketAddress plain;
    private InetSocketAddress tls;
    private Probe probe;
    private final List<AutoCloseable> attackers = new ArrayList<>();

    static List<String> transports() {
        return HttpServerTest.transports();
    }

    private void start(String transport) throws Exception {
        IoHandlerFactory io = transport.equals("epoll") ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        // One loop: the attackers and the probe share it, as on a small server.
        group = new MultiThreadIoEventLoopGroup(1, io);
        server = new HttpServer(group);
        Channel ch = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        plain = (InetSocketAddress) ch.localAddress();
        Channel tlsChannel = server.startTls(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        tls = (InetSocketAddress) tlsChannel.localAddress();
        probe = new Probe(plain, tls);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable a : attackers) {
            a.close();
        }
        if (probe != null) {
            probe.close();
        }
        if (server != null) {
            server.close();
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    /** Direct memory held by the default allocator's pool (every chunk, used or not): what the server allocated. */
    static long directMemory() {
        ByteBufAllocator alloc = ByteBufAllocator.DEFAULT;
        return alloc instanceof PooledByteBufAllocator pooled ? pooled.metric().usedDirectMemory() : 0;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void http2NeverReadingEchoFlood(String transport) throws Exception {
        start(transport);
        long before = directMemory();
        probe.start();
        List<Http2Attacker> echoers = new ArrayList<>();
        List<CompletableFuture<Void>> writers = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ATTACK_MILLIS);
        for (int i = 0; i < ECHO_CONNECTIONS; i++) {
            Http2Attacker a = new Http2Attacker(plain);
            attackers.add(a);
            echoers.add(a);
            // Half the connections close every stream's window outright; the other half keep the default window
            // but never refill it, so the server's DATA queues behind the connection window.
            boolean zeroWindow = i % 2 == 0;
            writers.add(CompletableFuture.runAsync(() -> echoFlood(a, zeroWindow, deadline), daemonThread()));
        }
        probe.awaitMillis(ATTACK_MILLIS + HOLD_MILLIS);
        long peak = probe.peakDirectMemory.get();
        long sent = 0;
        for (Http2Attacker a : echoers) {
            sent += a.dataWritten.get();
            a.close();
        }
        probe.awaitMillis(AFTER_MILLIS);
        probe.close();

        // What one connection may hold: the output bound, one DATA frame per stream written as the bound was
        // crossed, the unconsumed DATA its receive window lets in, and a socket's worth of read buffers.
        long perConnection = Http2FrameCodec.DEFAULT_MAX_QUEUED_OUTBOUND_BYTES
                + ECHO_STREAMS * (long) DEFAULT_MAX_FRAME_BYTES
                + Http2FrameCodec.DEFAULT_CONNECTION_WINDOW_SIZE_BYTES + SOCKET_BUFFER_ALLOWANCE_BYTES;
        long bound = ECHO_CONNECTIONS * perConnection;
        System.out.printf("[%s] http2NeverReadingEchoFlood: %d connections x %d streams sent %d MiB; pooled direct"
                + " memory %d -> peak %d MiB (bound %d MiB); probes %d ok, %d failed%n", transport,
                ECHO_CONNECTIONS, ECHO_STREAMS, sent / MIB, before / MIB, peak / MIB, bound / MIB, probe.ok.get(),
                probe.failures.size());
        assertThat(sent).as("DATA the attackers got in").isGreaterThan(ECHO_CONNECTIONS * 65_535L);
        assertThat(peak - before).as("direct memory the server took for them").isLessThanOrEqualTo(bound);
        assertThat(probe.failures).as("normal requests that failed").isEmpty();
        assertThat(probe.ok.get()).as("normal requests served").isGreaterThan(10);
    }

    /** 100 streams each posting 1 MiB to /echo, round robin, within the windows the server grants. */
    private static void echoFlood(Http2Attacker a, boolean zeroWindow, long deadline) {
        try {
            if (zeroWindow) {
                a.handshake(Http2Attacker.SETTINGS_INITIAL_WINDOW_SIZE, 0);
            } else {
                a.handshake();
            }
            a.readWindowUpdates();
            a.echoFlood(ECHO_STREAMS, BODY_BYTES, deadline);
        } catch (IOException | InterruptedException e) {
            // The server ended the connection or the test closed it: either ends this attacker.
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void http2RequestFloodWithoutReading(String transport) throws Exception {
        start(transport);
        long before = directMemory();
        probe.start();
        Http2Attacker a = new Http2Attacker(plain);
        attackers.add(a);
        AtomicLong requests = new AtomicLong();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ATTACK_MILLIS);
        CompletableFuture<Void> flood = CompletableFuture.runAsync(() -> {
            try {
                a.handshake();
                // The first request puts a 4,000-octet field in the dynamic table (RFC 7541 §6.2.1); every later
                // one names it with one octet, so a ~40-octet request asks for a ~4 KB answer from /headers.
                byte[] pad = new byte[4000];
                Arrays.fill(pad, (byte) 'p');
                ByteArrayOutputStream first = new ByteArrayOutputStream();
                first.write(0x40);
                Http2Attacker.literal(first, "x-pad");
                Http2Attacker.literal(first, new String(pad, StandardCharsets.ISO_8859_1));
                byte[] common = commonRequestFields();
                first.write(common);
                a.headerBlock(1, true, first.toByteArray());
                ByteArrayOutputStream next = new ByteArrayOutputStream();
                next.write(0x80 | 62); // indexed: the newest dynamic entry, x-pad
                next.write(common);
                byte[] block = next.toByteArray();
                int id = 3;
                while (System.nanoTime() - deadline < 0 && id > 0) {
                    a.headerBlock(id, true, block);
                    requests.incrementAndGet();
                    id += 2;
                    if ((id & 0x3f) == 1) {
                        a.flush();
                    }
                }
            } catch (IOException e) {
                // blocked writes end when the test closes the socket, or the server ended the connection
            }
        }, daemonThread());
        probe.awaitMillis(ATTACK_MILLIS);
        long peak = probe.peakDirectMemory.get();
        a.close();
        flood.get(30, TimeUnit.SECONDS);
        probe.awaitMillis(AFTER_MILLIS);
        probe.close();

        long bound = 32 * MIB;
        System.out.printf("[%s] http2RequestFloodWithoutReading: %d requests sent; pooled direct memory %d ->"
                + " peak %d MiB; probes %d ok, %d failed%n", transport, requests.get(), before / MIB, peak / MIB,
                probe.ok.get(), probe.failures.size());
        assertThat(peak - before).as("direct memory the server took for the flood").isLessThanOrEqualTo(bound);
        assertThat(probe.failures).as("normal requests that failed, during the flood and right after").isEmpty();
        assertThat(probe.ok.get()).as("normal requests served").isGreaterThan(10);
    }

    private static byte[] commonRequestFields() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (String[] f : new String[][] {{":method", "GET"}, {":scheme", "http"}, {":authority", "localhost"},
                {":path", "/headers"}}) {
            b.write(0x00);
            Http2Attacker.literal(b, f[0]);
            Http2Attacker.literal(b, f[1]);
        }
        return b.toByteArray();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void webSocketNeverReadingEcho(String transport) throws Exception {
        start(transport);
        long before = directMemory();
        probe.start();
        Socket socket = new Socket();
        attackers.add(socket);
        socket.setReceiveBufferSize(16 * 1024);
        socket.connect(plain, 10_000);
        OutputStream out = socket.getOutputStream();
        out.write(("GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String head = readHead(socket.getInputStream());
        assertThat(head).startsWith("HTTP/1.1 101");
        byte[] message = maskedBinaryFrame(1_000_000);
        AtomicInteger sent = new AtomicInteger();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ATTACK_MILLIS);
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try {
                while (System.nanoTime() - deadline < 0) {
                    out.write(message);
                    sent.incrementAndGet();
                }
            } catch (IOException e) {
                // closed by the test (a blocked write) or by the server
            }
        }, daemonThread());
        probe.awaitMillis(ATTACK_MILLIS);
        long peak = probe.peakDirectMemory.get();
        socket.close();
        writer.get(30, TimeUnit.SECONDS);
        probe.awaitMillis(AFTER_MILLIS);
        probe.close();

        long bound = 16 * MIB;
        System.out.printf("[%s] webSocketNeverReadingEcho: %d messages of 1 MB sent; pooled direct memory %d ->"
                + " peak %d MiB; probes %d ok, %d failed%n", transport, sent.get(), before / MIB, peak / MIB,
                probe.ok.get(), probe.failures.size());
        assertThat(peak - before).as("direct memory the server took for the echo").isLessThanOrEqualTo(bound);
        assertThat(probe.failures).as("normal requests that failed").isEmpty();
        assertThat(probe.ok.get()).as("normal requests served").isGreaterThan(10);
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3))
                    ? matched + 1 : 0;
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    /** A client's binary frame (RFC 6455 §5.2, masked with a fixed key) of {@code length} zero octets. */
    private static byte[] maskedBinaryFrame(int length) {
        byte[] key = {0x37, (byte) 0xfa, 0x21, 0x3d};
        byte[] frame = new byte[2 + 8 + 4 + length];
        frame[0] = (byte) 0x82;
        frame[1] = (byte) (0x80 | 127);
        for (int i = 0; i < 8; i++) {
            frame[2 + i] = (byte) ((long) length >>> (56 - 8 * i));
        }
        System.arraycopy(key, 0, frame, 10, 4);
        for (int i = 0; i < length; i++) {
            frame[14 + i] = key[i & 3]; // 0 ^ key
        }
        return frame;
    }

    private static java.util.concurrent.Executor daemonThread() {
        return r -> {
            Thread t = new Thread(r, "never-reading-peer");
            t.setDaemon(true);
            t.start();
        };
    }

    /**
     * A normal client asking {@code /plaintext} over HTTP/1.1, h2c and HTTP/2 over TLS in turn, a request every
     * 100 ms with a 10 s timeout each, recording failures; it samples the server's direct memory as it goes.
     */
    static final class Probe {
        final AtomicInteger ok = new AtomicInteger();
        final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        final AtomicLong peakDirectMemory = new AtomicLong();
        private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(3, r -> {
            Thread t = new Thread(r, "probe");
            t.setDaemon(true);
            return t;
        });
        private final HttpClient h1;
        private final HttpClient h2c;
        private final HttpClient h2;
        private final URI plainUri;
        private final URI tlsUri;
        private int turn;

        Probe(InetSocketAddress plain, InetSocketAddress tls) throws Exception {
            SSLContext trustAll = SSLContext.getInstance("TLS");
            trustAll.init(null, new TrustManager[] {new TrustEverything()}, null);
            h1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10)).build();
            h2c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                    .connectTimeout(Duration.ofSeconds(10)).build();
            h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(trustAll)
                    .connectTimeout(Duration.ofSeconds(10)).build();
            plainUri = URI.create("http://127.0.0.1:" + plain.getPort() + "/plaintext");
            tlsUri = URI.create("https://127.0.0.1:" + tls.getPort() + "/plaintext");
            peakDirectMemory.set(directMemory());
        }

        void start() {
            timer.scheduleWithFixedDelay(this::probeOnce, 0, 100, TimeUnit.MILLISECONDS);
            timer.scheduleAtFixedRate(() -> peakDirectMemory.accumulateAndGet(directMemory(), Math::max), 0, 20,
                    TimeUnit.MILLISECONDS);
        }

        private void probeOnce() {
            int t = turn++ % 3;
            HttpClient client = t == 0 ? h1 : t == 1 ? h2c : h2;
            URI uri = t == 2 ? tlsUri : plainUri;
            String name = t == 0 ? "HTTP/1.1" : t == 1 ? "h2c" : "h2 over TLS";
            try {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                        .build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200 && r.body().equals("Hello, World!")) {
                    ok.incrementAndGet();
                } else {
                    failures.add(name + ": status " + r.statusCode() + " body " + r.body());
                }
            } catch (Exception e) {
                failures.add(name + ": " + e);
            }
        }

        /** Lets the probe run for {@code millis} (the test's own clock while attackers work). */
        void awaitMillis(long millis) throws Exception {
            timer.schedule(() -> { }, millis, TimeUnit.MILLISECONDS).get(millis + 60_000, TimeUnit.MILLISECONDS);
        }

        void close() throws InterruptedException {
            // shutdown, not shutdownNow: a probe in flight finishes (interrupting it would count as a failure);
            // the periodic tasks are not run again.
            timer.shutdown();
            timer.awaitTermination(30, TimeUnit.SECONDS);
        }
    }

    /** For the probe only: the server's certificate is a fresh self-signed one. */
    private static final class TrustEverything implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
