package io.weir.testsuite.fault;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Observation 1 of issue 19, end to end: a server whose process runs out of file descriptors, with logging
 * that throws an {@link Error} on every call (as it did when the first log record needed a descriptor; the
 * server turns {@link io.weir.testing.FailingLoggerFinder} on once it listens), must
 * survive, back off, and serve again once descriptors free up, leaving no socket in CLOSE-WAIT. The server runs
 * in a child JVM ({@link FdExhaustionServer}) started through {@code /bin/sh -c 'ulimit -n N && exec java ...'}.
 */
class FdExhaustionTest {
    private static final long TIMEOUT_SECONDS = 30;
    /** The child's descriptor limit: enough to start a JVM, few enough to exhaust with a few hundred connections. */
    private static final int FD_LIMIT = 160;
    /** Connections opened at once: more than the child can hold, fewer than its listen backlog. */
    private static final int CONNECTIONS = 300;
    private static final String CLOSE_WAIT = "08";

    private Process child;
    private Path stderr;
    private final List<Socket> clients = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (Socket s : clients) {
            s.close();
        }
        if (child != null) {
            child.getOutputStream().close();
            if (!child.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                child.destroyForcibly().waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        }
        if (stderr != null) {
            Files.deleteIfExists(stderr);
        }
    }

    @ParameterizedTest
    @EnumSource(FaultTransport.class)
    void runningOutOfDescriptorsPausesAcceptingAndRecovers(FaultTransport transport) throws Exception {
        transport.assumeAvailable();
        stderr = Files.createTempFile("fd-exhaustion-" + transport, ".log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String command = "ulimit -n " + FD_LIMIT + " && exec '" + java + "'"
                + " -cp '" + System.getProperty("java.class.path") + "'"
                + " -Xmx128m -XX:+UseSerialGC"
                + " --add-opens java.base/sun.nio.ch=ALL-UNNAMED --enable-native-access=ALL-UNNAMED"
                + " " + FdExhaustionServer.class.getName() + " " + transport.name();
        child = new ProcessBuilder("/bin/sh", "-c", command).redirectError(stderr.toFile()).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> readLines(child, lines), "fd-exhaustion-reader");
        reader.setDaemon(true);
        reader.start();
        String ready = nextLine(lines, "READY", stderr);
        int port = Integer.parseInt(ready.substring("READY ".length()));
        // `exec` makes the shell's process the JVM's.
        long pid = child.pid();
        try (Socket probe = connect(port)) {
            assertEchoes(probe, "warm");
        }
        // The descriptors the JVM holds of its own (class-path jars, the loop's epoll and wake-up descriptors): the
        // baseline the server must come back to.
        child.getOutputStream().write("STATUS\n".getBytes(StandardCharsets.US_ASCII));
        child.getOutputStream().flush();
        String idle = nextLine(lines, "STATUS", stderr);
        int baselineFds = Integer.parseInt(idle.substring(idle.lastIndexOf(' ') + 1));

        // Far more connections than descriptors: the kernel completes them all into the backlog, the server
        // accepts until accept4/accept fails with EMFILE.
        for (int i = 0; i < CONNECTIONS; i++) {
            clients.add(connect(port));
        }
        String failure = nextLine(lines, "ACCEPT-FAILED", stderr);
        assertThat(failure).containsIgnoringCase("too many open files");
        assertThat(child.isAlive()).isTrue();

        for (Socket s : clients) {
            s.close();
        }
        clients.clear();

        // Serves again: the loop survived, and the back-off ended.
        try (Socket fresh = connect(port)) {
            assertEchoes(fresh, "again");
        }
        // Every connection the server held saw its peer's FIN and was closed: nothing open, nothing in CLOSE-WAIT.
        // Polled (bounded): the child's closes follow the clients' FINs with no event this process can wait on.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        String status;
        int closeWait;
        do {
            child.getOutputStream().write("STATUS\n".getBytes(StandardCharsets.US_ASCII));
            child.getOutputStream().flush();
            status = nextLine(lines, "STATUS", stderr);
            closeWait = socketsInState(pid, CLOSE_WAIT);
            if (status.startsWith("STATUS 0 ") && closeWait == 0) {
                break;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        } while (System.nanoTime() - deadline < 0);
        assertThat(status).startsWith("STATUS 0 ");
        assertThat(closeWait).isZero();
        int openFds = Integer.parseInt(status.substring(status.lastIndexOf(' ') + 1));
        // Back to the baseline, give or take the jars a JVM opens lazily for classes first used since (the
        // exceptions of a failed accept, say): none of the 300 connections' descriptors is left.
        assertThat(openFds).as("descriptors open after recovery (%d at idle)", baselineFds)
                .isLessThanOrEqualTo(baselineFds + 8);
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
                (int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        return s;
    }

    private static void assertEchoes(Socket socket, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        OutputStream out = socket.getOutputStream();
        out.write(bytes);
        out.flush();
        assertThat(new String(socket.getInputStream().readNBytes(bytes.length), StandardCharsets.US_ASCII))
                .isEqualTo(text);
    }

    private static void readLines(Process process, BlockingQueue<String> lines) {
        try (BufferedReader r = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException ignored) {
            // The child went away; nextLine() times out with its stderr.
        }
    }

    private static String nextLine(BlockingQueue<String> lines, String prefix, Path stderr) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        for (;;) {
            long left = deadline - System.nanoTime();
            String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (line == null) {
                throw new AssertionError("no '" + prefix + "' line from the server within " + TIMEOUT_SECONDS
                        + " s; its stderr:\n" + tail(stderr));
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    private static String tail(Path file) throws IOException {
        String s = Files.readString(file);
        return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    }

    /** Sockets of process {@code pid} in TCP state {@code state} (hex, as /proc/net/tcp writes it). */
    private static int socketsInState(long pid, String state) throws IOException {
        Set<String> inodes = new HashSet<>();
        File[] fds = new File("/proc/" + pid + "/fd").listFiles();
        if (fds != null) {
            for (File fd : fds) {
                try {
                    String target = Files.readSymbolicLink(fd.toPath()).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring(8, target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // The descriptor closed while listing: not a socket in any state any more.
                }
            }
        }
        int count = 0;
        for (String table : new String[] {"tcp", "tcp6"}) {
            Path path = Path.of("/proc", Long.toString(pid), "net", table);
            if (!Files.exists(path)) {
                continue;
            }
            List<String> rows = Files.readAllLines(path);
            for (int i = 1; i < rows.size(); i++) {
                String[] cols = rows.get(i).trim().split("\\s+");
                // sl local rem st tx:rx tr:when retrnsmt uid timeout inode
                if (cols.length > 9 && cols[3].equals(state) && inodes.contains(cols[9])) {
                    count++;
                }
            }
        }
        return count;
    }
}
