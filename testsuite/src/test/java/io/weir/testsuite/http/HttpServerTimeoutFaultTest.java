package io.weir.testsuite.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.Epoll;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.nio.NioIoHandler;
import io.weir.server.HttpServer;
import io.weir.handler.codec.http.HttpServerTimeouts;
import io.weir.util.concurrent.EventExecutor;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Slow and silent clients against the example HTTP server, started from code with short timeouts (head 300 ms,
 * idle 300 ms, body at least 1 KiB/s over 300 ms windows after 200 ms, HTTP/2 stream read 300 ms), over NIO and
 * epoll: slowloris connections get 408 and are closed, silent ones are closed, a slow body gets 408, connections
 * beyond the cap are refused; on h2c, a partial preface is closed, an idle connection gets GOAWAY and is closed, a
 * slowloris stream is reset; and another client is served meanwhile. The graceful close after a 408 (and after the codec's own 400) is
 * {@code HttpServerCodec}'s, with its default linger bounds (2 s, 1 MiB). Afterwards every connection the server
 * accepted is closed and the process's descriptor count is back to where it was before the clients came.
 *
 * <p>The attackers pace their own bytes with sleeps (that is the attack); every wait for the server uses a future
 * or a blocking read with a generous timeout.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpServerTimeoutFaultTest {
    private static final int ATTACKERS = 16;
    private static final int READ_TIMEOUT_MILLIS = 20_000;
    private static final long CLOSE_WAIT_SECONDS = 30;
    private static final long ATTACK_PACE_MILLIS = 50;
    private static final String PLAINTEXT = "GET /plaintext HTTP/1.1\r\nHost: localhost\r\n\r\n";
    private static final long SHORT_TIMEOUT_MILLIS = 300;
    private static final byte[] H2_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
    private static final int H2_HEADERS = 0x1;
    private static final int H2_RST_STREAM = 0x3;
    private static final int H2_SETTINGS = 0x4;
    private static final int H2_PING = 0x6;
    private static final int H2_GOAWAY = 0x7;
    private static final int H2_FLAG_ACK = 0x1;
    private static final int H2_FLAG_END_HEADERS = 0x4;
    private static final long H2_CANCEL = 0x8;

    private EventLoopGroup group;
    private HttpServer server;
    private InetSocketAddress address;
    /** The close future of every connection the server accepted, refused ones included. */
    private final ConcurrentLinkedQueue<ChannelFuture> accepted = new ConcurrentLinkedQueue<>();
    private final List<Socket> clients = new ArrayList<>();
    private long baselineDescriptors;

    static Stream<String> transports() {
        return Stream.of("nio", "epoll");
    }

    private static HttpServerTimeouts shortTimeouts() {
        return new HttpServerTimeouts()
                .setRequestHeadTimeout(SHORT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
                .setIdleTimeout(SHORT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
                .setMinBodyRate(1024)
                .setBodyRateGracePeriod(200, TimeUnit.MILLISECONDS)
                .setBodyRateWindow(300, TimeUnit.MILLISECONDS);
    }

    private void start(String transport, int maxConnections, HttpServerTimeouts timeouts) throws Exception {
        IoHandlerFactory io;
        if (transport.equals("epoll")) {
            Assumptions.assumeTrue(Epoll.isAvailable(), () -> "epoll is not available: "
                    + Epoll.unavailabilityCause());
            io = EpollIoHandler.newFactory();
        } else {
            io = NioIoHandler.newFactory();
        }
        group = new MultiThreadIoEventLoopGroup(2, io);
        server = new HttpServer(group).timeouts(timeouts).maxConnections(maxConnections)
                .streamReadTimeout(SHORT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        Channel listener = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        address = (InetSocketAddress) listener.localAddress();
        // First in the listener's pipeline: sees every accepted channel, before the cap and the acceptor.
        listener.pipeline().addFirst(new ChannelHandler() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                if (msg instanceof Channel child) {
                    accepted.add(child.closeFuture());
                }
                ctx.fireChannelRead(msg);
            }
        });
        baselineDescriptors = openDescriptors();
    }

    @AfterEach
    void stop() throws Exception {
        for (Socket s : clients) {
            s.close();
        }
        if (server != null) {
            server.close();
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * The process's open sockets, pipes, epoll and event descriptors: {@code /proc/self/fd} without files (the JVM
     * opens jars and {@code /dev/urandom} lazily, which says nothing about connections).
     */
    private static long openDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(HttpServerTimeoutFaultTest::isNotAFile).count();
        }
    }

    private static boolean isNotAFile(Path fd) {
        try {
            return !Files.readSymbolicLink(fd).toString().startsWith("/");
        } catch (IOException gone) {
            // Closed between the listing and the read (the listing's own descriptor): not open any more.
            return false;
        }
    }

    private Socket connect() throws IOException {
        Socket s = new Socket(address.getAddress(), address.getPort());
        s.setSoTimeout(READ_TIMEOUT_MILLIS);
        s.setTcpNoDelay(true);
        clients.add(s);
        return s;
    }

    /** Everything the server sends until it ends its output (or resets the connection after its answer). */
    private static String readUntilClosed(Socket s) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = s.getInputStream();
        byte[] buf = new byte[4096];
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                received.write(buf, 0, n);
            }
        } catch (SocketException reset) {
            // A reset after the answer (the server closed while attacker bytes were in flight) still ends it.
        }
        return received.toString(StandardCharsets.ISO_8859_1);
    }

    /** One keep-alive request served while the attack is on: the server still answers everyone else. */
    private void assertAnotherClientIsServed() throws IOException {
        try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            s.setSoTimeout(READ_TIMEOUT_MILLIS);
            s.getOutputStream().write(PLAINTEXT.getBytes(StandardCharsets.ISO_8859_1));
            byte[] buf = new byte[1024];
            int n = s.getInputStream().read(buf);
            assertThat(n).isPositive();
            assertThat(new String(buf, 0, n, StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 200 OK");
        }
    }

    /** Closes every client, waits for every accepted connection to close, then compares descriptor counts. */
    private void assertEverythingIsClosed() throws Exception {
        for (Socket s : clients) {
            s.close();
        }
        clients.clear();
        for (ChannelFuture closed : accepted) {
            assertThat(closed.await(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)).as("an accepted connection closed").isTrue();
        }
        // A close future wakes this thread before its loop has run the future's other listeners (the connection
        // cap's count among them): one turn of every loop lets them finish.
        for (EventExecutor loop : group) {
            loop.submit(() -> { }).get(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
        }
        // A closed NIO channel's socket is released by the JDK at its selector's next select, and a close
        // future may complete just before the transport's last step: let every loop turn over until the count
        // settles (each turn is a handshake with the loop, not a sleep), then compare.
        for (int turn = 0; turn < 100 && openDescriptors() != baselineDescriptors; turn++) {
            for (EventExecutor loop : group) {
                loop.submit(() -> { }).get(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
            }
        }
        assertThat(openDescriptors()).as("descriptors back to the baseline").isEqualTo(baselineDescriptors);
    }

    /** Sends one byte to each socket every {@link #ATTACK_PACE_MILLIS} until stopped or the socket fails. */
    private static Thread trickle(List<Socket> sockets, AtomicBoolean stop) {
        Thread t = new Thread(() -> {
            boolean[] dead = new boolean[sockets.size()];
            while (!stop.get()) {
                for (int i = 0; i < sockets.size(); i++) {
                    if (dead[i]) {
                        continue;
                    }
                    try {
                        OutputStream out = sockets.get(i).getOutputStream();
                        out.write('a');
                        out.flush();
                    } catch (IOException closed) {
                        dead[i] = true;
                    }
                }
                try {
                    Thread.sleep(ATTACK_PACE_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "slowloris");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** {@link #ATTACKERS} connections, each of which has sent {@code start}. */
    private List<Socket> attackers(String start) throws IOException {
        List<Socket> attackers = new ArrayList<>();
        for (int i = 0; i < ATTACKERS; i++) {
            Socket s = connect();
            s.getOutputStream().write(start.getBytes(StandardCharsets.ISO_8859_1));
            attackers.add(s);
        }
        return attackers;
    }

    /**
     * Trickles bytes into {@code attackers} while another client is served, and until each attacker has been
     * answered 408 with {@code Connection: close} and its connection ended.
     */
    private void trickleUntilAnswered408(List<Socket> attackers) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        Thread trickle = trickle(attackers, stop);
        try {
            assertAnotherClientIsServed();
            for (Socket s : attackers) {
                assertThat(readUntilClosed(s)).startsWith("HTTP/1.1 408 Request Timeout")
                        .containsIgnoringCase("connection: close");
            }
        } finally {
            stop.set(true);
            trickle.join(TimeUnit.SECONDS.toMillis(CLOSE_WAIT_SECONDS));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void slowlorisConnectionsGet408AndAreClosed(String transport) throws Exception {
        start(transport, HttpServer.NO_CONNECTION_LIMIT, shortTimeouts());
        trickleUntilAnswered408(attackers("GET /plaintext HTTP/1.1\r\nHost: localhost\r\nX-Slow: "));
        assertEverythingIsClosed();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void clientStillSendingAfterARejectedHeadGetsOneAnswerAndIsNotCutOffByTheHeadClock(String transport)
            throws Exception {
        start(transport, HttpServer.NO_CONNECTION_LIMIT, shortTimeouts());
        Socket s = connect();
        OutputStream out = s.getOutputStream();
        String rejectedHead = "GET /plaintext HTTP/1.1\r\nHost: localhost\r\nBad Name: v\r\n";
        out.write(rejectedHead.getBytes(StandardCharsets.ISO_8859_1));
        String received = readUntilClosed(s);
        assertThat(received).startsWith("HTTP/1.1 400 Bad Request").containsIgnoringCase("connection: close");
        assertThat(received.split("HTTP/1\\.1 ", -1)).as("one answer, no 408 behind it").hasSize(2);
        // The codec lingers (2 s by default) and drops what still comes; the timeout handler, whose head clock
        // (300 ms from connection start) has run out meanwhile, stood down when the codec began closing, so it
        // neither answers nor cuts the linger short: these writes all land, none meets a reset.
        for (int i = 0; i < 10; i++) {
            out.write('a');
            out.flush();
            Thread.sleep(ATTACK_PACE_MILLIS);
        }
        assertEverythingIsClosed();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void silentConnectionsAreClosed(String transport) throws Exception {
        start(transport, HttpServer.NO_CONNECTION_LIMIT, shortTimeouts());
        List<Socket> silent = new ArrayList<>();
        for (int i = 0; i < ATTACKERS; i++) {
            silent.add(connect());
        }
        assertAnotherClientIsServed();
        for (Socket s : silent) {
            assertThat(readUntilClosed(s)).as("closed quietly: nothing was asked").isEmpty();
        }
        assertEverythingIsClosed();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void idleKeepAliveConnectionIsClosedAfterItsResponse(String transport) throws Exception {
        start(transport, HttpServer.NO_CONNECTION_LIMIT, shortTimeouts());
        Socket s = connect();
        s.getOutputStream().write(PLAINTEXT.getBytes(StandardCharsets.ISO_8859_1));
        String received = readUntilClosed(s);
        assertThat(received).startsWith("HTTP/1.1 200 OK").doesNotContain("408");
        assertEverythingIsClosed();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void slowBodyGets408AndIsClosed(String transport) throws Exception {
        start(transport, HttpServer.NO_CONNECTION_LIMIT, shortTimeouts());
        // One byte per 50 ms is 20 bytes/s, far below 1 KiB/s.
        trickleUntilAnswered408(attackers("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n"));
        assertEverythingIsClosed();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void connectionCapRefusesBeyondLimit(String transport) throws Exception {
        // The default timeouts: the two admitted clients wait, idle, while the third is refused.
        start(transport, 2, new HttpServerTimeouts());
        Socket first = connect();
        Socket second = connect();
        Socket refused = connect();
        // Refused at once: the server closes it before reading anything.
        assertThat(readUntilClosed(refused)).isEmpty();
        assertThat(server.connectionLimit().rejectedConnections()).isEqualTo(1);
        for (Socket s : List.of(first, second)) {
            s.getOutputStream().write(PLAINTEXT.getBytes(StandardCharsets.ISO_8859_1));
            byte[] buf = new byte[1024];
            int n = s.getInputStream().read(buf);
            assertThat(new String(buf, 0, Math.max(n, 0), StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 200 OK");
        }
        assertEverythingIsClosed();
        assertThat(server.connectionLimit().openConnections()).isZero();
    }

    // ---------------------------------------------------------------- HTTP/2 (h2c by prior knowledge)

    /** One frame as the client saw it: type, flags, stream, payload. */
    private record H2Frame(int type, int flags, int streamId, byte[] payload) {
        long int32(int offset) {
            return ((payload[offset] & 0xFFL) << 24) | ((payload[offset + 1] & 0xFF) << 16)
                    | ((payload[offset + 2] & 0xFF) << 8) | (payload[offset + 3] & 0xFF);
        }
    }

    private static void writeFrame(OutputStream out, int type, int flags, int streamId, byte[] payload)
            throws IOException {
        byte[] frame = new byte[9 + payload.length];
        frame[0] = (byte) (payload.length >>> 16);
        frame[1] = (byte) (payload.length >>> 8);
        frame[2] = (byte) payload.length;
        frame[3] = (byte) type;
        frame[4] = (byte) flags;
        frame[5] = (byte) (streamId >>> 24);
        frame[6] = (byte) (streamId >>> 16);
        frame[7] = (byte) (streamId >>> 8);
        frame[8] = (byte) streamId;
        System.arraycopy(payload, 0, frame, 9, payload.length);
        out.write(frame);
        out.flush();
    }

    /** The next frame, or null when the server ended the connection. */
    private static H2Frame readFrame(DataInputStream in) throws IOException {
        byte[] header = new byte[9];
        try {
            in.readFully(header);
        } catch (EOFException | SocketException closed) {
            return null;
        }
        int length = ((header[0] & 0xFF) << 16) | ((header[1] & 0xFF) << 8) | (header[2] & 0xFF);
        byte[] payload = new byte[length];
        in.readFully(payload);
        int streamId = ((header[5] & 0x7F) << 24) | ((header[6] & 0xFF) << 16) | ((header[7] & 0xFF) << 8)
                | (header[8] & 0xFF);
        return new H2Frame(header[3] & 0xFF, header[4] & 0xFF, streamId, payload);
    }

    /** A connection that sent the preface, an empty SETTINGS and the acknowledgement of the server's. */
    private Socket h2cConnection() throws IOException {
        Socket s = connect();
        OutputStream out = s.getOutputStream();
        out.write(H2_PREFACE);
        writeFrame(out, H2_SETTINGS, 0, 0, new byte[0]);
        writeFrame(out, H2_SETTINGS, H2_FLAG_ACK, 0, new byte[0]);
        return s;
    }

    /**
     * A POST request's header block, HPACK without Huffman coding (RFC 7541): :method POST, :scheme http and
     * :path / from the static table, :authority as a literal with an indexed name.
     */
    private static byte[] postHeaderBlock() {
        byte[] authority = "localhost".getBytes(StandardCharsets.ISO_8859_1);
        byte[] block = new byte[5 + authority.length];
        block[0] = (byte) 0x83; // :method POST
        block[1] = (byte) 0x86; // :scheme http
        block[2] = (byte) 0x84; // :path /
        block[3] = 0x01; // literal without indexing, name :authority (index 1)
        block[4] = (byte) authority.length;
        System.arraycopy(authority, 0, block, 5, authority.length);
        return block;
    }

    /**
     * Reads frames until the server ends the connection, answering the PING of its graceful close (so that the
     * second GOAWAY and the close follow at once); returns every frame seen.
     */
    private static List<H2Frame> readUntilClosedAnsweringPings(Socket s) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        OutputStream out = s.getOutputStream();
        List<H2Frame> frames = new ArrayList<>();
        for (H2Frame f; (f = readFrame(in)) != null; ) {
            frames.add(f);
            if (f.type() == H2_PING && (f.flags() & H2_FLAG_ACK) == 0) {
                try {
                    writeFrame(out, H2_PING, H2_FLAG_ACK, 0, f.payload());
                } catch (IOException closed) {
                    // The server may close first: its close is what the caller waits for.
                }
            }
        }
        return frames;
    }

    private static List<H2Frame> ofType(List<H2Frame> frames, int type) {
        List<H2Frame> out = new ArrayList<>();
        for (H2Frame f : frames) {
            if (f.type() == type) {
                out.add(f);
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void partialPrefaceIsClosed(String transport) throws Exception {
        start(transport, HttpServer.NO_CONNECTION_LIMIT, shortTimeouts());
        List<Socket> attackers = new ArrayList<>();
        for (int i = 0; i < ATTACKERS; i++) {
            Socket s = connect();
            // A few bytes of the preface, then nothing: no protocol can be chosen yet.
            s.getOutputStream().write(H2_PREFACE, 0, 1 + i % 20);
            attackers.add(s);
        }
        assertAnotherClientIsServed();
        for (Socket s : attackers) {
            assertThat(readUntilClosed(s)).as("closed quietly before a protocol was chosen").isEmpty();
        }
        assertEverythingIsClosed();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void idleH2cConnectionIsClosedWithGoAway(String transport) throws Exception {
        start(transport, HttpServer.NO_CONNECTION_LIMIT, shortTimeouts());
        List<Socket> idle = new ArrayList<>();
        for (int i = 0; i < ATTACKERS; i++) {
            idle.add(h2cConnection());
        }
        assertAnotherClientIsServed();
        for (Socket s : idle) {
            List<H2Frame> goAways = ofType(readUntilClosedAnsweringPings(s), H2_GOAWAY);
            assertThat(goAways).as("a graceful close").isNotEmpty()
                    .allSatisfy(g -> assertThat(g.int32(4)).as("NO_ERROR").isZero());
        }
        assertEverythingIsClosed();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void http2SlowlorisStreamIsReset(String transport) throws Exception {
        start(transport, HttpServer.NO_CONNECTION_LIMIT, shortTimeouts());
        Socket s = h2cConnection();
        int streams = 10;
        for (int i = 0; i < streams; i++) {
            // HEADERS without END_STREAM: the body is announced and never comes.
            writeFrame(s.getOutputStream(), H2_HEADERS, H2_FLAG_END_HEADERS, 1 + 2 * i, postHeaderBlock());
        }
        assertAnotherClientIsServed();
        // Every stream is reset; once none is open the idle timeout ends the connection.
        List<H2Frame> frames = readUntilClosedAnsweringPings(s);
        List<H2Frame> resets = ofType(frames, H2_RST_STREAM);
        assertThat(resets).extracting(H2Frame::streamId).containsExactlyInAnyOrder(1, 3, 5, 7, 9, 11, 13, 15, 17, 19);
        assertThat(resets).allSatisfy(r -> assertThat(r.int32(0)).as("CANCEL").isEqualTo(H2_CANCEL));
        assertThat(ofType(frames, H2_HEADERS)).as("no stream was answered").isEmpty();
        assertEverythingIsClosed();
    }
}
