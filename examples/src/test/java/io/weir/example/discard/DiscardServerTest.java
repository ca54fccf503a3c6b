package io.weir.example.discard;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.WriteBufferWaterMark;
import io.weir.channel.nio.NioIoHandler;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DiscardServerTest {
    private static final int SOCKET_TIMEOUT_MILLIS = 30_000;

    private final ReportCapture report = new ReportCapture();
    private EventLoopGroup group;
    private DiscardServer server;
    private Channel listening;
    private InetSocketAddress address;

    @BeforeEach
    void startServer() throws Exception {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        server = new DiscardServer(group, report);
        listening = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        address = (InetSocketAddress) listening.localAddress();
    }

    @AfterEach
    void stopServer() throws Exception {
        server.close();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    @Test
    void everyByteSentOverAPlainSocketIsCounted() throws Exception {
        byte[] data = new byte[1024 * 1024 + 3];
        new Random(7).nextBytes(data);
        sendAndWaitForServerClose(data);
        assertThat(server.bytesReceived()).isEqualTo(data.length);
    }

    @Test
    void bytesOfSeveralConnectionsAddUp() throws Exception {
        sendAndWaitForServerClose(new byte[1000]);
        sendAndWaitForServerClose(new byte[234]);
        assertThat(server.bytesReceived()).isEqualTo(1234);
    }

    @Test
    void exampleClientFollowsBackpressureAndTheServerCountsAllItSent() throws Exception {
        long total = 4L * 1024 * 1024 + 5;
        DiscardClientHandler client = DiscardClient.run(group, address, 8 * 1024, total,
                new WriteBufferWaterMark(16 * 1024, 32 * 1024));
        assertThat(client.bytesWritten()).isEqualTo(total);
        // More than the high water mark is sent, so the writer must have stopped at it at least once.
        assertThat(client.pauses()).isPositive();
        // run() returns once the server closed the connection, which it does after reading every byte.
        assertThat(server.bytesReceived()).isEqualTo(total);
    }

    @Test
    void throughputIsReportedOnceBytesArrived() throws Exception {
        sendAndWaitForServerClose(new byte[4096]);
        assertThat(report.firstLine.get(30, TimeUnit.SECONDS)).startsWith("Received ").contains("MiB/s")
                .endsWith("4096 bytes in all");
    }

    @Test
    void closeReturnsOnceTheListeningChannelIsClosed() throws Exception {
        server.close();
        assertThat(listening.isOpen()).isFalse();
        assertThat(listening.closeFuture().isDone()).isTrue();
        server.close();
        assertThat(listening.isOpen()).as("closing twice is harmless").isFalse();
    }

    /** Sends {@code data}, half-closes and waits until the server closed its side, having read everything. */
    private void sendAndWaitForServerClose(byte[] data) throws Exception {
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.setSoTimeout(SOCKET_TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(data);
            out.flush();
            socket.shutdownOutput();
            assertThat(socket.getInputStream().read()).as("the server closes at end of input").isEqualTo(-1);
        }
    }

    /** Collects what the server reports, completing {@link #firstLine} with its first line. */
    private static final class ReportCapture extends PrintStream {
        final CompletableFuture<String> firstLine = new CompletableFuture<>();

        ReportCapture() {
            super(new ByteArrayOutputStream(), true);
        }

        @Override
        public void println(String line) {
            firstLine.complete(line);
        }
    }
}
