package io.weir.server;

import io.weir.channel.EventLoopGroup;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.uring.IoUringIoHandler;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Memory per idle keep-alive connection of the reference server: its resident set (VmRSS) before and after 10,000
 * connections that each made one request and then stay open and silent, on epoll, on io_uring with the provided
 * buffer ring (the default), and on io_uring with each connection receiving into a buffer of its own. Not a test:
 * a tool whose output goes to {@code microbench/results/}.
 *
 * <pre>
 * flock /tmp/weir-mvn.lock mvn -B -o -q -pl server -am test-compile
 * java -cp "server/target/test-classes:server/target/classes:WEIR_CLASSES_AND_JARS" \
 *     io.weir.server.IdleConnectionRss [connections] [out-file]
 * </pre>
 * where the class path is server's test class path with each Weir module's {@code target/classes} (see the
 * header of {@code microbench/results/2026-12-06-uring-idle-rss.txt}).
 *
 * Each server runs in a child JVM of its own with one event loop and a fixed, pre-touched heap
 * ({@code -Xms=-Xmx}, {@code -XX:+AlwaysPreTouch}), so the heap's pages are resident before the first measurement
 * and the delta is what the connections cost: kernel socket memory is not in a process's RSS, Java objects and
 * direct buffers are. Before measuring, 1,000 connections make a request and close, so allocator arenas and code
 * are warm. This process holds the client side (one descriptor per connection: {@code ulimit -n} must allow it).
 */
public final class IdleConnectionRss {
    private static final int DEFAULT_CONNECTIONS = 10_000;
    private static final int WARM_UP_CONNECTIONS = 1_000;
    private static final String HEAP = "256m";
    private static final byte[] REQUEST =
            "GET /plaintext HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    /** "Hello, World!": the body after the head of each response. */
    private static final int BODY_BYTES = 13;
    private static final String[] TRANSPORTS = {"epoll", "io_uring", "io_uring-no-buffer-ring"};

    private IdleConnectionRss() {
    }

    /** {@code server TRANSPORT}: the child; otherwise {@code [connections] [out-file]}: the measurement. */
    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("server")) {
            serve(args[1]);
            return;
        }
        int connections = args.length > 0 ? Integer.parseInt(args[0]) : DEFAULT_CONNECTIONS;
        List<String> lines = new ArrayList<>();
        lines.add("# server RSS delta for " + connections + " idle keep-alive connections after one request each,"
                + " one event loop, -Xms" + HEAP + " -Xmx" + HEAP + " -XX:+AlwaysPreTouch, "
                + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " cores, kernel "
                + Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim());
        long[] perConnection = new long[TRANSPORTS.length];
        for (int i = 0; i < TRANSPORTS.length; i++) {
            long[] rss = measure(TRANSPORTS[i], connections);
            perConnection[i] = (rss[1] - rss[0]) / connections;
            lines.add(String.format(Locale.ROOT, "%-24s before %,10d KiB  after %,10d KiB  delta %,9d KiB"
                    + "  per connection %,6d bytes", TRANSPORTS[i], rss[0] / 1024, rss[1] / 1024,
                    (rss[1] - rss[0]) / 1024, perConnection[i]));
        }
        lines.add(String.format(Locale.ROOT, "io_uring / epoll per connection: %.2f;"
                + " io_uring without the ring / epoll: %.2f", (double) perConnection[1] / perConnection[0],
                (double) perConnection[2] / perConnection[0]));
        for (String line : lines) {
            System.out.println(line);
        }
        if (args.length > 1) {
            Files.write(Path.of(args[1]), lines, StandardCharsets.UTF_8);
        }
    }

    /** The child: the reference server on one loop of {@code transport}; prints its port, stops at end of input. */
    private static void serve(String transport) throws Exception {
        IoHandlerFactory io = switch (transport) {
            case "epoll" -> EpollIoHandler.newFactory();
            case "io_uring" -> IoUringIoHandler.newFactory();
            case "io_uring-no-buffer-ring" -> IoUringIoHandler.newFactory(IoUringIoHandler.DEFAULT_RING_ENTRIES,
                    IoUringIoHandler.DEFAULT_CQ_ENTRIES, IoUringIoHandler.DEFAULT_BUFFER_SIZE_BYTES, 0);
            default -> throw new IllegalArgumentException("transport: " + transport);
        };
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, io);
        HttpServer server = new HttpServer(group);
        InetSocketAddress address = (InetSocketAddress) server
                .start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).localAddress();
        PrintStream out = System.out;
        out.println("port " + address.getPort());
        out.flush();
        while (System.in.read() >= 0) {
            // Runs until the parent closes our input.
        }
        server.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
    }

    /** {before, after} RSS in bytes of a server on {@code transport} around {@code connections} idle connections. */
    private static long[] measure(String transport, int connections) throws Exception {
        Process server = new ProcessBuilder(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xms" + HEAP, "-Xmx" + HEAP, "-XX:+AlwaysPreTouch", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), IdleConnectionRss.class.getName(), "server", transport))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader lines = new BufferedReader(new InputStreamReader(server.getInputStream(),
                    StandardCharsets.US_ASCII));
            String first = lines.readLine();
            if (first == null || !first.startsWith("port ")) {
                throw new IOException(transport + " server did not start: " + first);
            }
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(),
                    Integer.parseInt(first.substring("port ".length())));
            for (SocketChannel socket : open(address, WARM_UP_CONNECTIONS)) {
                socket.close();
            }
            long before = rss(server.pid());
            List<SocketChannel> idle = open(address, connections);
            long after = rss(server.pid());
            for (SocketChannel socket : idle) {
                socket.close();
            }
            return new long[] {before, after};
        } finally {
            server.getOutputStream().close();
            if (!server.waitFor(30, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    /** {@code count} connections, each having made one request and read its whole response. */
    private static List<SocketChannel> open(InetSocketAddress address, int count) throws IOException {
        List<SocketChannel> sockets = new ArrayList<>(count);
        ByteBuffer response = ByteBuffer.allocate(4096);
        for (int i = 0; i < count; i++) {
            SocketChannel socket = SocketChannel.open(address);
            sockets.add(socket);
            socket.write(ByteBuffer.wrap(REQUEST));
            response.clear();
            while (!isComplete(response)) {
                if (socket.read(response) < 0) {
                    throw new IOException("connection " + i + " closed before its response");
                }
            }
        }
        return sockets;
    }

    private static boolean isComplete(ByteBuffer response) {
        String text = new String(response.array(), 0, response.position(), StandardCharsets.US_ASCII);
        int head = text.indexOf("\r\n\r\n");
        return head >= 0 && text.length() >= head + 4 + BODY_BYTES;
    }

    private static long rss(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"), StandardCharsets.US_ASCII)) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.substring("VmRSS:".length()).replace("kB", "").trim()) * 1024;
            }
        }
        throw new IOException("no VmRSS for process " + pid);
    }
}
