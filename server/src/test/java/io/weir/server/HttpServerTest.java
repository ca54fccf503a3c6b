package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.epoll.Epoll;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.uring.IoUring;
import io.weir.channel.uring.IoUringIoHandler;
import java.io.ByteArrayOutputStream;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The example server's routes over real sockets, on NIO and (where the host has them) epoll and io_uring. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpServerTest {
    private static final int SOCKET_TIMEOUT_MILLIS = 30_000;

    private EventLoopGroup group;
    private HttpServer server;
    private HttpClient client;
    private InetSocketAddress address;

    static List<String> transports() {
        List<String> transports = new ArrayList<>();
        transports.add("nio");
        if (Epoll.isAvailable()) {
            transports.add("epoll");
        } else {
            System.getLogger(HttpServerTest.class.getName()).log(System.Logger.Level.INFO,
                    "epoll not available, the example server is not tested on it: " + Epoll.unavailabilityCause());
        }
        if (IoUring.isAvailable()) {
            transports.add("io_uring");
        } else {
            System.getLogger(HttpServerTest.class.getName()).log(System.Logger.Level.INFO,
                    "io_uring not available, the example server is not tested on it: "
                            + IoUring.unavailabilityCause());
        }
        return transports;
    }

    private void start(String transport) throws Exception {
        IoHandlerFactory io = switch (transport) {
            case "epoll" -> EpollIoHandler.newFactory();
            case "io_uring" -> IoUringIoHandler.newFactory();
            default -> NioIoHandler.newFactory();
        };
        group = new MultiThreadIoEventLoopGroup(2, io);
        server = new HttpServer(group);
        Channel channel = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        address = (InetSocketAddress) channel.localAddress();
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + address.getPort() + path);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @ParameterizedTest
    @MethodSource("transports")
    void plaintextSaysHelloWorld(String transport) throws Exception {
        start(transport);
        HttpResponse<String> response = get("/plaintext");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("Hello, World!");
        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain");
        assertThat(response.headers().firstValue("content-length")).hasValue("13");
    }

    @ParameterizedTest
    @MethodSource("transports")
    void jsonReturnsTheMessageObject(String transport) throws Exception {
        start(transport);
        HttpResponse<String> response = get("/json?pretty=no");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"message\":\"Hello, World!\"}");
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
    }

    @ParameterizedTest
    @MethodSource("transports")
    void echoReturnsThePostedBodyAndItsType(String transport) throws Exception {
        start(transport);
        String body = "x".repeat(100_000) + "ü";
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri("/echo"))
                        .header("Content-Type", "text/plain; charset=utf-8")
                        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(body);
        assertThat(response.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
    }

    @ParameterizedTest
    @MethodSource("transports")
    void headersListsWhatTheClientSent(String transport) throws Exception {
        start(transport);
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri("/headers"))
                .header("X-Quote", "say \"hi\"\\").header("X-Twice", "a").header("X-Twice", "b").build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body())
                .contains("\"x-quote\":[\"say \\\"hi\\\"\\\\\"]")
                .contains("\"x-twice\":[\"a\",\"b\"]")
                .contains("\"host\":[\"127.0.0.1:" + address.getPort() + "\"]");
    }

    @ParameterizedTest
    @MethodSource("transports")
    void headersNameTheClientsAddressWhichNoHeaderCanImpersonate(String transport) throws Exception {
        start(transport);
        try (RawHttp http = new RawHttp(address)) {
            RawHttp.Response response = http.send("GET", "/headers", "Remote: 6.6.6.6:666");
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.bodyText()).startsWith("{\"remote\":\"127.0.0.1:")
                    .doesNotContain("6.6.6.6").doesNotContain("\"remote\":[");
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void unknownPathsAre404AndWrongMethods405(String transport) throws Exception {
        start(transport);
        assertThat(get("/nothing-here").statusCode()).isEqualTo(404);
        HttpResponse<String> wrongMethod = get("/echo");
        assertThat(wrongMethod.statusCode()).isEqualTo(405);
        assertThat(wrongMethod.headers().firstValue("allow")).hasValue("POST");
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aBodyOverTheLimitIsRefusedWith413(String transport) throws Exception {
        start(transport);
        String reply = exchange("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: "
                + (HttpServer.MAX_CONTENT_LENGTH_BYTES + 1) + "\r\n\r\n");
        assertThat(reply).startsWith("HTTP/1.1 413 ");
    }

    @ParameterizedTest
    @MethodSource("transports")
    void pipelinedRequestsAreAnsweredInOrderOnOneConnection(String transport) throws Exception {
        start(transport);
        String reply = exchange("GET /json HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /plaintext HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /plaintext HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertThat(reply.indexOf("{\"message\"")).isPositive()
                .isLessThan(reply.indexOf("Hello, World!"));
        assertThat(reply.split("HTTP/1.1 200 OK", -1)).hasSize(4);
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aMalformedRequestGets400AndTheConnectionCloses(String transport) throws Exception {
        start(transport);
        String reply = exchange("GET /plaintext HTTP/1.1\r\nHost : x\r\n\r\n");
        assertThat(reply).startsWith("HTTP/1.1 400 ");
    }

    /** Sends raw bytes, then reads until the server closes the connection. */
    private String exchange(String request) throws Exception {
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            socket.setSoTimeout(SOCKET_TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            byte[] chunk = new byte[8192];
            for (int n; (n = in.read(chunk)) != -1; ) {
                received.write(chunk, 0, n);
            }
            return received.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
