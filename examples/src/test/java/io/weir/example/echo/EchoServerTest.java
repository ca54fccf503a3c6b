package io.weir.example.echo;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
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
class EchoServerTest {
    private static final int SOCKET_TIMEOUT_MILLIS = 30_000;

    private EventLoopGroup group;
    private EchoServer server;
    private InetSocketAddress address;

    @BeforeEach
    void startServer() throws Exception {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        server = new EchoServer(group);
        Channel channel = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        address = (InetSocketAddress) channel.localAddress();
    }

    @AfterEach
    void stopServer() throws Exception {
        server.close();
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    @Test
    void startReturnsTheBoundEphemeralPort() {
        assertThat(address.getPort()).isPositive();
        assertThat(address.getAddress().isLoopbackAddress()).isTrue();
    }

    @Test
    void tenMebibytesOfRandomBytesComeBackByteForByte() throws Exception {
        byte[] sent = new byte[10 * 1024 * 1024];
        new Random(42).nextBytes(sent);
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.setSoTimeout(SOCKET_TIMEOUT_MILLIS);
            // Written from another thread: the server stops reading while its replies are not read, so a
            // client that wrote everything before reading would wait forever.
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
                try {
                    OutputStream out = socket.getOutputStream();
                    out.write(sent);
                    out.flush();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            byte[] received = new byte[sent.length];
            new DataInputStream(socket.getInputStream()).readFully(received);
            writing.get(30, TimeUnit.SECONDS);
            assertThat(received).isEqualTo(sent);
        }
    }

    @Test
    void connectionsAreEchoedIndependently() throws Exception {
        try (Socket a = new Socket(address.getAddress(), address.getPort());
             Socket b = new Socket(address.getAddress(), address.getPort())) {
            a.setSoTimeout(SOCKET_TIMEOUT_MILLIS);
            b.setSoTimeout(SOCKET_TIMEOUT_MILLIS);
            a.getOutputStream().write("from a".getBytes());
            b.getOutputStream().write("from b, longer".getBytes());
            assertThat(readExactly(b.getInputStream(), 14)).isEqualTo("from b, longer".getBytes());
            assertThat(readExactly(a.getInputStream(), 6)).isEqualTo("from a".getBytes());
        }
    }

    @Test
    void serverClosesWhenThePeerCloses() throws Exception {
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.setSoTimeout(SOCKET_TIMEOUT_MILLIS);
            socket.getOutputStream().write(new byte[] {1, 2, 3});
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            assertThat(readExactly(in, 3)).containsExactly(1, 2, 3);
            assertThat(in.read()).as("end of stream once the server closed").isEqualTo(-1);
        }
    }

    @Test
    void exampleClientStopsAfterItsByteLimitHavingEchoedAtLeastThatMuch() throws Exception {
        long limit = 1024 * 1024;
        EchoClientHandler result = EchoClient.run(group, address, 1000, limit, 0);
        assertThat(result.bytesReceived()).isGreaterThanOrEqualTo(limit);
        assertThat(result.elapsedNanos()).isPositive();
    }

    @Test
    void startingTwiceIsRefused() {
        org.assertj.core.api.Assertions.assertThatIllegalStateException()
                .isThrownBy(() -> server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)))
                .withMessageContaining("already started");
    }

    private static byte[] readExactly(InputStream in, int length) throws Exception {
        byte[] bytes = new byte[length];
        new DataInputStream(in).readFully(bytes);
        return bytes;
    }
}
