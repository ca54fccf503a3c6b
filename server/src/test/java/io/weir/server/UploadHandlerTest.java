package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.nio.NioIoHandler;
import io.weir.handler.codec.http.multipart.HttpPostDecoderConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code POST /upload}: multipart decoded as it streams in, parts reported, temporary files gone afterwards. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UploadHandlerTest {
    private static final String BOUNDARY = "----weir-test-boundary-7MA4YWxkTrZu0gW";
    private static final int FILE_BYTES = 300 * 1024;

    @TempDir
    Path uploads;

    private EventLoopGroup group;
    private HttpServer server;
    private InetSocketAddress address;

    static List<String> transports() {
        return HttpServerTest.transports();
    }

    private void start(String transport, HttpPostDecoderConfig limits) throws Exception {
        IoHandlerFactory io = transport.equals("epoll") ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        group = new MultiThreadIoEventLoopGroup(2, io);
        server = new HttpServer(group).uploadDirectory(uploads).uploadLimits(limits, 1 << 20);
        Channel channel = server.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        address = (InetSocketAddress) channel.localAddress();
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).get(30, TimeUnit.SECONDS);
        }
    }

    /** A multipart/form-data body as curl -F would send it. */
    private static final class Multipart {
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();

        Multipart field(String name, String value) {
            ascii("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n");
            body.writeBytes(value.getBytes(StandardCharsets.UTF_8));
            ascii("\r\n");
            return this;
        }

        Multipart file(String name, String filename, byte[] content) {
            ascii("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + name + "\"; filename=\""
                    + filename + "\"\r\nContent-Type: application/octet-stream\r\n\r\n");
            body.writeBytes(content);
            ascii("\r\n");
            return this;
        }

        byte[] end() {
            ascii("--" + BOUNDARY + "--\r\n");
            return body.toByteArray();
        }

        private void ascii(String s) {
            body.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
        }
    }

    private static byte[] request(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=" + BOUNDARY
                + "\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(body);
        return out.toByteArray();
    }

    private List<Path> leftInUploads() throws IOException {
        try (Stream<Path> files = Files.list(uploads)) {
            return files.toList();
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void fieldsAndFilesAreListedAndTheTemporaryFilesDeleted(String transport) throws Exception {
        start(transport, new HttpPostDecoderConfig());
        byte[] file = new byte[FILE_BYTES];
        for (int i = 0; i < file.length; i++) {
            file[i] = (byte) (i * 31);
        }
        String title = "Weir \"upload\"";
        byte[] body = new Multipart().field("title", title).field("lang", "ünïcödé")
                .file("data", "big.bin", file).file("empty", "nothing.txt", new byte[0]).end();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<String> response = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + "/upload"))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "multipart/form-data; boundary=" + BOUNDARY)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.body()).isEqualTo("{\"fields\":["
                + "{\"name\":\"title\",\"file\":false,\"size\":" + title.length() + "},"
                + "{\"name\":\"lang\",\"file\":false,\"size\":" + "ünïcödé".getBytes(StandardCharsets.UTF_8).length + "},"
                + "{\"name\":\"data\",\"file\":true,\"filename\":\"big.bin\",\"size\":" + FILE_BYTES + "},"
                + "{\"name\":\"empty\",\"file\":true,\"filename\":\"nothing.txt\",\"size\":0}]}");
        assertThat(leftInUploads()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void tooManyFieldsAre413AndTheConnectionStaysUsable(String transport) throws Exception {
        start(transport, new HttpPostDecoderConfig().setMaxFields(2));
        byte[] body = new Multipart().field("a", "1").file("f", "f.bin", new byte[64 * 1024]).field("c", "3")
                .field("d", "4").end();
        try (RawHttp http = new RawHttp(address)) {
            RawHttp.Response refused = http.sendRaw(request(body));
            assertThat(refused.status()).isEqualTo(413);
            assertThat(refused.header("content-type")).isEqualTo("application/json");
            assertThat(refused.bodyText()).startsWith("{\"error\":");
            RawHttp.Response next = http.send("GET", "/plaintext");
            assertThat(next.bodyText()).isEqualTo("Hello, World!");
        }
        assertThat(leftInUploads()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aPartOverTheSizeLimitIs413(String transport) throws Exception {
        start(transport, new HttpPostDecoderConfig());
        byte[] body = new Multipart().field("a", "1").file("f", "huge.bin", new byte[(1 << 20) + 1]).end();
        try (RawHttp http = new RawHttp(address)) {
            RawHttp.Response refused = http.sendRaw(request(body));
            assertThat(refused.status()).isEqualTo(413);
            assertThat(refused.bodyText()).startsWith("{\"error\":");
        }
        assertThat(leftInUploads()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aMalformedBodyIs400(String transport) throws Exception {
        start(transport, new HttpPostDecoderConfig());
        byte[] body = ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno closing boundary")
                .getBytes(StandardCharsets.US_ASCII);
        try (RawHttp http = new RawHttp(address)) {
            RawHttp.Response refused = http.sendRaw(request(body));
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.bodyText()).startsWith("{\"error\":");
        }
        assertThat(leftInUploads()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void otherMethodsAndMediaTypesAreRefused(String transport) throws Exception {
        start(transport, new HttpPostDecoderConfig());
        try (RawHttp http = new RawHttp(address)) {
            RawHttp.Response get = http.send("GET", "/upload");
            assertThat(get.status()).isEqualTo(405);
            assertThat(get.header("allow")).isEqualTo("POST");
            RawHttp.Response json = http.sendRaw(("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                    + "\r\nContent-Length: 2\r\n\r\n{}").getBytes(StandardCharsets.US_ASCII));
            assertThat(json.status()).isEqualTo(415);
            assertThat(http.send("GET", "/json").status()).isEqualTo(200);
        }
    }
}
