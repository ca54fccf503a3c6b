package io.weir.example.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The WebSocket echo example against the JDK's WebSocket client, and against a client that never reads. */
class WebSocketEchoServerTest {
    /** Far more than the loopback socket buffers on both sides can hold. */
    private static final long FLOOD_LIMIT_BYTES = 256L << 20;

    private EventLoopGroup group;
    private InetSocketAddress address;

    @BeforeEach
    void start() throws Exception {
        group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        Channel server = WebSocketEchoServer.start(group, 0);
        address = new InetSocketAddress("127.0.0.1", ((InetSocketAddress) server.localAddress()).getPort());
    }

    @AfterEach
    void stop() throws Exception {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
    }

    @Test
    void echoesTextMessages() throws Exception {
        assertThat(echo("hello, echo")).isEqualTo("hello, echo");
        String large = "x".repeat(40_000);
        assertThat(echo(large)).isEqualTo(large);
    }

    @Test
    void otherPathsAreNotFound() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + address.getPort() + "/")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(404);
    }

    @Test
    void clientThatNeverReadsIsHeldBackByTcpWhileAnotherIsServed() throws Exception {
        try (SocketChannel flood = SocketChannel.open(address); Selector selector = Selector.open()) {
            flood.write(ByteBuffer.wrap(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII)));
            assertThat(readHead(flood)).startsWith("HTTP/1.1 101");
            flood.configureBlocking(false);
            flood.register(selector, SelectionKey.OP_WRITE);
            ByteBuffer frame = maskedBinaryFrame(16 * 1024);
            long written = 0;
            // Send echo requests and never read the echoes: once the server stops reading, the socket buffers
            // fill and the writes stop going through. A server that kept reading would buffer every echo.
            while (written < FLOOD_LIMIT_BYTES) {
                if (!frame.hasRemaining()) {
                    frame.rewind();
                }
                int n = flood.write(frame);
                written += n;
                if (n == 0 && selector.select(2_000) == 0) {
                    break; // two seconds without room to write: the server is not reading
                }
                selector.selectedKeys().clear();
            }
            assertThat(written).as("bytes the server took from a client that never reads")
                    .isLessThan(FLOOD_LIMIT_BYTES);
            // The event loop is not stuck on it: another client is served meanwhile.
            assertThat(echo("still here")).isEqualTo("still here");
        }
    }

    /** Sends {@code text} with the JDK's client and returns the echo. */
    private String echo(String text) throws Exception {
        CompletableFuture<String> received = new CompletableFuture<>();
        StringBuilder parts = new StringBuilder();
        WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(30))
                .buildAsync(URI.create("ws://127.0.0.1:" + address.getPort() + "/ws"), new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                        parts.append(data);
                        if (last) {
                            received.complete(parts.toString());
                        }
                        webSocket.request(1);
                        return null;
                    }
                }).get(30, TimeUnit.SECONDS);
        try {
            ws.sendText(text, true).get(30, TimeUnit.SECONDS);
            return received.get(30, TimeUnit.SECONDS);
        } finally {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "").get(30, TimeUnit.SECONDS);
        }
    }

    private static String readHead(SocketChannel ch) throws Exception {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        ByteBuffer one = ByteBuffer.allocate(1);
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            one.clear();
            if (ch.read(one) < 0) {
                break;
            }
            head.write(one.array(), 0, one.position());
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    /** A final binary frame with a 16-bit length and a zero mask key (RFC 6455 §5.2; clients must mask). */
    private static ByteBuffer maskedBinaryFrame(int payloadBytes) {
        ByteBuffer frame = ByteBuffer.allocate(2 + 2 + 4 + payloadBytes);
        frame.put((byte) 0x82).put((byte) (0x80 | 126)).putShort((short) payloadBytes).putInt(0);
        frame.put(new byte[payloadBytes]).flip();
        return frame;
    }
}
