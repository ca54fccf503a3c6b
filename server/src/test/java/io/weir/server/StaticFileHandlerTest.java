package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.FileRegion;
import io.weir.channel.IoHandlerFactory;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.channel.epoll.EpollIoHandler;
import io.weir.channel.nio.NioIoHandler;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http.HttpServerKeepAliveHandler;
import io.weir.util.ReferenceCountUtil;
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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code /static}: files served exactly, validators, ranges, keep-alive, and every way out of the root refused. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StaticFileHandlerTest {
    private static final String SECRET = "TOP SECRET: outside the root";
    private static final int BIG_FILE_BYTES = 5 * 1024 * 1024 + 123;

    @TempDir
    Path base;

    private Path root;
    private byte[] big;
    private byte[] small;
    private EventLoopGroup group;
    private HttpServer server;
    private InetSocketAddress address;
    private HttpClient client;

    static List<String> transports() {
        return HttpServerTest.transports();
    }

    @BeforeEach
    void files() throws IOException {
        root = Files.createDirectory(base.resolve("root"));
        Files.writeString(base.resolve("secret"), SECRET);
        big = new byte[BIG_FILE_BYTES];
        new Random(42).nextBytes(big);
        Files.write(root.resolve("big.bin"), big);
        small = "body { color: red }\n".getBytes(StandardCharsets.US_ASCII);
        Files.createDirectory(root.resolve("css"));
        Files.write(root.resolve("css").resolve("site.css"), small);
        Files.writeString(root.resolve(".hidden"), SECRET);
        Files.writeString(root.resolve("hello world.txt"), "spaces");
        Files.createDirectory(root.resolve("dir"));
        Files.write(root.resolve("empty.json"), new byte[0]);
    }

    private void start(String transport) throws Exception {
        IoHandlerFactory io = transport.equals("epoll") ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        group = new MultiThreadIoEventLoopGroup(2, io);
        server = new HttpServer(group).staticRoot(root);
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

    private HttpResponse<byte[]> get(String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + path))
                .timeout(Duration.ofSeconds(30));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @ParameterizedTest
    @MethodSource("transports")
    void filesArriveByteIdenticalWithTheirContentType(String transport) throws Exception {
        start(transport);
        HttpResponse<byte[]> bigResponse = get("/static/big.bin");
        assertThat(bigResponse.statusCode()).isEqualTo(200);
        assertThat(bigResponse.headers().firstValue("content-type")).hasValue("application/octet-stream");
        assertThat(bigResponse.headers().firstValue("content-length")).hasValue(String.valueOf(BIG_FILE_BYTES));
        assertThat(Arrays.equals(bigResponse.body(), big)).as("5 MiB body identical").isTrue();

        HttpResponse<byte[]> smallResponse = get("/static/css/site.css?v=3");
        assertThat(smallResponse.statusCode()).isEqualTo(200);
        assertThat(smallResponse.body()).isEqualTo(small);
        assertThat(smallResponse.headers().firstValue("content-type")).hasValue("text/css; charset=utf-8");
        assertThat(smallResponse.headers().firstValue("accept-ranges")).hasValue("bytes");
        assertThat(smallResponse.headers().firstValue("cache-control")).hasValue("public, max-age=3600");

        HttpResponse<byte[]> escaped = get("/static/hello%20world.txt");
        assertThat(escaped.statusCode()).isEqualTo(200);
        assertThat(new String(escaped.body(), StandardCharsets.US_ASCII)).isEqualTo("spaces");

        HttpResponse<byte[]> empty = get("/static/empty.json");
        assertThat(empty.statusCode()).isEqualTo(200);
        assertThat(empty.body()).isEmpty();
        assertThat(empty.headers().firstValue("content-type")).hasValue("application/json");
    }

    @ParameterizedTest
    @MethodSource("transports")
    void headSendsTheHeadersOfGetWithoutTheBody(String transport) throws Exception {
        start(transport);
        try (RawHttp http = new RawHttp(address)) {
            RawHttp.Response head = http.send("HEAD", "/static/big.bin");
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.header("content-length")).isEqualTo(String.valueOf(BIG_FILE_BYTES));
            assertThat(head.header("etag")).isNotNull();
            // The connection carries on right after the head: no body bytes were sent.
            RawHttp.Response next = http.send("GET", "/static/css/site.css");
            assertThat(next.status()).isEqualTo(200);
            assertThat(next.body()).isEqualTo(small);
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void validatorsAnswer304(String transport) throws Exception {
        start(transport);
        HttpResponse<byte[]> first = get("/static/css/site.css");
        String etag = first.headers().firstValue("etag").orElseThrow();
        String lastModified = first.headers().firstValue("last-modified").orElseThrow();
        assertThat(etag).matches("\"[0-9a-f]+-[0-9a-f]+\"");

        HttpResponse<byte[]> byTag = get("/static/css/site.css", "If-None-Match", "\"other\", W/" + etag);
        assertThat(byTag.statusCode()).isEqualTo(304);
        assertThat(byTag.body()).isEmpty();
        assertThat(byTag.headers().firstValue("etag")).hasValue(etag);

        assertThat(get("/static/css/site.css", "If-Modified-Since", lastModified).statusCode()).isEqualTo(304);
        assertThat(get("/static/css/site.css", "If-None-Match", "\"stale\"").statusCode()).isEqualTo(200);
        assertThat(get("/static/css/site.css", "If-Modified-Since", "Thu, 01 Jan 1970 00:00:01 GMT").statusCode())
                .isEqualTo(200);
    }

    @ParameterizedTest
    @MethodSource("transports")
    void rangesAnswer206Or416(String transport) throws Exception {
        start(transport);
        HttpResponse<byte[]> middle = get("/static/big.bin", "Range", "bytes=1000-1999");
        assertThat(middle.statusCode()).isEqualTo(206);
        assertThat(middle.headers().firstValue("content-range")).hasValue("bytes 1000-1999/" + BIG_FILE_BYTES);
        assertThat(middle.body()).isEqualTo(Arrays.copyOfRange(big, 1000, 2000));

        HttpResponse<byte[]> suffix = get("/static/big.bin", "Range", "bytes=-10");
        assertThat(suffix.statusCode()).isEqualTo(206);
        assertThat(suffix.body()).isEqualTo(Arrays.copyOfRange(big, BIG_FILE_BYTES - 10, BIG_FILE_BYTES));

        HttpResponse<byte[]> open = get("/static/big.bin", "Range", "bytes=" + (BIG_FILE_BYTES - 3) + "-");
        assertThat(open.statusCode()).isEqualTo(206);
        assertThat(open.body()).isEqualTo(Arrays.copyOfRange(big, BIG_FILE_BYTES - 3, BIG_FILE_BYTES));

        HttpResponse<byte[]> beyond = get("/static/big.bin", "Range", "bytes=" + BIG_FILE_BYTES + "-");
        assertThat(beyond.statusCode()).isEqualTo(416);
        assertThat(beyond.headers().firstValue("content-range")).hasValue("bytes */" + BIG_FILE_BYTES);

        HttpResponse<byte[]> several = get("/static/css/site.css", "Range", "bytes=0-1,5-6");
        assertThat(several.statusCode()).isEqualTo(200);
        assertThat(several.body()).isEqualTo(small);

        HttpResponse<byte[]> staleIfRange = get("/static/css/site.css", "Range", "bytes=0-1", "If-Range", "\"old\"");
        assertThat(staleIfRange.statusCode()).isEqualTo(200);
        assertThat(staleIfRange.body()).isEqualTo(small);
        String etag = staleIfRange.headers().firstValue("etag").orElseThrow();
        assertThat(get("/static/css/site.css", "Range", "bytes=0-1", "If-Range", etag).statusCode()).isEqualTo(206);
    }

    @ParameterizedTest
    @MethodSource("transports")
    void theConnectionIsReusedAfterAFileResponse(String transport) throws Exception {
        start(transport);
        try (RawHttp http = new RawHttp(address)) {
            RawHttp.Response file = http.send("GET", "/static/big.bin");
            assertThat(file.status()).isEqualTo(200);
            assertThat(Arrays.equals(file.body(), big)).isTrue();
            RawHttp.Response range = http.send("GET", "/static/big.bin", "Range: bytes=0-9");
            assertThat(range.body()).isEqualTo(Arrays.copyOf(big, 10));
            RawHttp.Response missing = http.send("GET", "/static/nope.txt");
            assertThat(missing.status()).isEqualTo(404);
            RawHttp.Response plain = http.send("GET", "/plaintext");
            assertThat(plain.bodyText()).isEqualTo("Hello, World!");
            RawHttp.Response last = http.send("GET", "/static/css/site.css", "Connection: close");
            assertThat(last.body()).isEqualTo(small);
            assertThat(http.closedByServer()).isTrue();
        }
    }

    /** Each attempt to leave the root or reach a hidden file, with the status it must get. */
    private static final Map<String, Integer> ESCAPES = Map.ofEntries(
            Map.entry("/static/../secret", 403),
            Map.entry("/static/%2e%2e/secret", 403),
            Map.entry("/static/%2E%2e%2fsecret", 403),
            Map.entry("/static/..%2fsecret", 403),
            Map.entry("/static/css/%2e%2e/%2e%2e/secret", 403),
            Map.entry("/static/css%2f..%2f..%2fsecret", 403),
            Map.entry("/static/foo/../../secret", 403),
            Map.entry("/static/./css/site.css", 403),
            Map.entry("/static//etc/passwd", 403),
            Map.entry("/static/%2fetc%2fpasswd", 403),
            Map.entry("/static/css/site.css%00.txt", 400),
            Map.entry("/static/%00", 400),
            Map.entry("/static/..\\secret", 403),
            Map.entry("/static/css%5c..%5c..%5csecret", 403),
            Map.entry("/static/%zz", 400),
            Map.entry("/static/%2", 400),
            Map.entry("/static/%c0%ae%c0%ae/secret", 400),
            Map.entry("/static/.hidden", 403),
            Map.entry("/static/%2ehidden", 403),
            Map.entry("/static/dir", 404),
            Map.entry("/static/dir/", 403),
            Map.entry("/static/", 404),
            Map.entry("/static/missing", 404));

    @ParameterizedTest
    @MethodSource("transports")
    void everyWayOutOfTheRootIsRefused(String transport) throws Exception {
        start(transport);
        for (Map.Entry<String, Integer> escape : ESCAPES.entrySet()) {
            try (RawHttp http = new RawHttp(address)) {
                RawHttp.Response response = http.send("GET", escape.getKey());
                assertThat(response.status()).as(escape.getKey()).isEqualTo(escape.getValue());
                assertThat(response.bodyText()).as(escape.getKey()).doesNotContain("SECRET");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aSymlinkPointingOutOfTheRootLooksMissing(String transport) throws Exception {
        Path link = root.resolve("link.txt");
        Path linkedDir = root.resolve("up");
        try {
            Files.createSymbolicLink(link, base.resolve("secret"));
            Files.createSymbolicLink(linkedDir, base);
        } catch (IOException | UnsupportedOperationException e) {
            assumeThat(false).as("the file system refuses symbolic links: " + e).isTrue();
        }
        start(transport);
        try (RawHttp http = new RawHttp(address)) {
            for (String path : List.of("/static/link.txt", "/static/up/secret")) {
                RawHttp.Response response = http.send("GET", path);
                assertThat(response.status()).as(path).isEqualTo(404);
                assertThat(response.bodyText()).as(path).doesNotContain("SECRET");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("transports")
    void withoutAStaticRootEveryStaticRequestIs404AndWrongMethods405(String transport) throws Exception {
        root = null;
        start(transport);
        assertThat(get("/static/css/site.css").statusCode()).isEqualTo(404);
        try (RawHttp http = new RawHttp(address)) {
            RawHttp.Response post = http.send("POST", "/static/x", "Content-Length: 0");
            assertThat(post.status()).isEqualTo(405);
            assertThat(post.header("allow")).isEqualTo("GET, HEAD");
        }
    }

    /** Passes everything through: stands in for a TLS handler, whose presence is what the choice looks at. */
    private static final class FakeTls implements ChannelHandler {
    }

    private static EmbeddedChannel embedded(boolean tls, Path root) {
        EmbeddedChannel ch = new EmbeddedChannel();
        if (tls) {
            ch.pipeline().addLast(StaticFileHandler.SSL_HANDLER_NAME, new FakeTls());
        }
        ch.pipeline().addLast(new HttpServerCodec(), new HttpServerKeepAliveHandler(), new StaticFileHandler(root));
        return ch;
    }

    private static ByteBuf request(String target) {
        return Unpooled.copiedBuffer("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n", StandardCharsets.US_ASCII);
    }

    @Test
    void onAPlainConnectionTheBodyIsAFileRegion() throws Exception {
        EmbeddedChannel ch = embedded(false, root);
        ch.writeInbound(request("/static/big.bin"));
        List<Object> out = List.copyOf(ch.outboundMessages());
        ch.outboundMessages().clear();
        try {
            assertThat(out).anySatisfy(o -> {
                assertThat(o).isInstanceOf(FileRegion.class);
                assertThat(((FileRegion) o).count()).isEqualTo(BIG_FILE_BYTES);
            });
        } finally {
            for (Object o : out) {
                ReferenceCountUtil.release(o);
            }
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void behindTlsTheBodyIsCopiedIntoBuffersThroughHttpChunkedInput() throws Exception {
        EmbeddedChannel ch = embedded(true, root);
        ch.writeInbound(request("/static/big.bin"));
        ch.runPendingTasks();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        for (Object o; (o = ch.readOutbound()) != null; ) {
            assertThat(o).isInstanceOf(ByteBuf.class);
            ByteBuf buf = (ByteBuf) o;
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            received.writeBytes(bytes);
            buf.release();
        }
        byte[] all = received.toByteArray();
        String text = new String(all, StandardCharsets.ISO_8859_1);
        int bodyStart = text.indexOf("\r\n\r\n") + 4;
        assertThat(text).startsWith("HTTP/1.1 200 OK").contains("content-length: " + BIG_FILE_BYTES);
        assertThat(Arrays.equals(Arrays.copyOfRange(all, bodyStart, all.length), big)).isTrue();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }
}
