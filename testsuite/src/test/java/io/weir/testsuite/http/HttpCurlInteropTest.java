package io.weir.testsuite.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.weir.bootstrap.Bootstrap;
import io.weir.bootstrap.ServerBootstrap;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.EventLoopGroup;
import io.weir.channel.MultiThreadIoEventLoopGroup;
import io.weir.channel.nio.NioIoHandler;
import io.weir.channel.nio.NioServerSocketChannel;
import io.weir.channel.nio.NioSocketChannel;
import io.weir.handler.codec.compression.CompressionLibrary;
import io.weir.handler.codec.http.DefaultFullHttpRequest;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.FullHttpResponse;
import io.weir.handler.codec.http.HttpClientCodec;
import io.weir.handler.codec.http.HttpContent;
import io.weir.handler.codec.http.HttpContentCompressor;
import io.weir.handler.codec.http.HttpContentDecompressor;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.HttpResponse;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http.LastHttpContent;
import io.weir.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A Weir {@link HttpServerCodec} server on NIO driven by the {@code curl} binary (GET, POST, chunked upload,
 * connection reuse, gzip, deflate, brotli and zstd responses decoded by curl, a gzip upload decoded by Weir) and by Weir's own {@link HttpClientCodec}. Fails, rather than skips, when curl is missing.
 */
class HttpCurlInteropTest {
    private static final long TIMEOUT_SECONDS = 30;
    /** What {@code /big} answers: 64 KiB of compressible text, well above the compressor's minimum size. */
    private static final String BIG_TEXT = bigText();

    private static String bigText() {
        StringBuilder text = new StringBuilder(64 * 1024);
        Random random = new Random(7);
        String[] words = {"weir ", "netty ", "epoll ", "buffer ", "pipeline ", "gzip ", "chunk ", "\n"};
        while (text.length() < 64 * 1024) {
            text.append(words[random.nextInt(words.length)]);
        }
        return text.toString();
    }

    private EventLoopGroup group;
    private Channel server;
    private final AtomicInteger connections = new AtomicInteger();

    /**
     * Answers every request, once its body has arrived, with one line: method, target, body length, CRC-32 of
     * the body and its first 32 bytes. Per connection.
     */
    private static final class Summarise implements ChannelHandler {
        private HttpRequest request;
        private long length;
        private final CRC32 crc = new CRC32();
        private final StringBuilder sample = new StringBuilder();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpRequest r) {
                    request = r;
                    length = 0;
                    crc.reset();
                    sample.setLength(0);
                }
                if (msg instanceof HttpContent c) {
                    ByteBuf b = c.content();
                    length += b.readableBytes();
                    crc.update(b.nioBuffer());
                    int room = 32 - sample.length();
                    if (room > 0) {
                        sample.append(b.toString(b.readerIndex(), Math.min(room, b.readableBytes()),
                                StandardCharsets.ISO_8859_1));
                    }
                }
                if (msg instanceof LastHttpContent last && last.decoderResult().isSuccess()
                        && request.uri().equals("/big")) {
                    FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                            Unpooled.copiedBuffer(BIG_TEXT, StandardCharsets.ISO_8859_1));
                    res.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain")
                            .set(HttpHeaderNames.CONTENT_LENGTH, res.content().readableBytes());
                    ctx.writeAndFlush(res);
                } else if (msg instanceof LastHttpContent last && last.decoderResult().isSuccess()) {
                    String body = request.method() + " " + request.uri() + " " + length + " "
                            + Long.toHexString(crc.getValue()) + " " + sample + "\n";
                    FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                            Unpooled.copiedBuffer(body, StandardCharsets.ISO_8859_1));
                    res.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain")
                            .set(HttpHeaderNames.CONTENT_LENGTH, res.content().readableBytes());
                    ctx.writeAndFlush(res);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    @BeforeEach
    void startServer() throws Exception {
        group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
        ServerBootstrap b = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.incrementAndGet();
                        // Compression only applies when the client asks (Accept-Encoding / Content-Encoding), so
                        // the other tests see plain bodies.
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpContentDecompressor(),
                                new HttpContentCompressor(), new Summarise());
                    }
                });
        ChannelFuture f = b.bind(new InetSocketAddress("127.0.0.1", 0));
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isNull();
        server = f.channel();
    }

    @AfterEach
    void stopServer() throws Exception {
        if (server != null) {
            server.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        group.shutdownGracefully(0, TIMEOUT_SECONDS, TimeUnit.SECONDS).await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private String url(String path) {
        return "http://127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort() + path;
    }

    private static String curl(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add("curl");
        command.add("--silent");
        command.add("--show-error");
        command.add("--max-time");
        command.add(Long.toString(TIMEOUT_SECONDS));
        command.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("curl is not installed or not on the PATH (install it: apt-get install curl; "
                    + ".ci/run installs it): " + e.getMessage(), e);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = p.getInputStream()) {
            CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
                try {
                    in.transferTo(out);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            if (!p.waitFor(TIMEOUT_SECONDS + 5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("curl did not finish within " + TIMEOUT_SECONDS + " s: " + command);
            }
            reader.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        String output = out.toString(StandardCharsets.ISO_8859_1);
        assertThat(p.exitValue()).as("curl exit status; output: " + output).isZero();
        return output;
    }

    private static String crc(byte[] data) {
        CRC32 crc = new CRC32();
        crc.update(data);
        return Long.toHexString(crc.getValue());
    }

    @Test
    void curlGet() throws Exception {
        assertThat(curl(url("/hello?x=1"))).isEqualTo("GET /hello?x=1 0 0 \n");
    }

    @Test
    void curlPostWithABody() throws Exception {
        String body = "name=weir&kind=framework";
        assertThat(curl("--data-binary", body, url("/form")))
                .isEqualTo("POST /form " + body.length() + " " + crc(body.getBytes(StandardCharsets.US_ASCII)) + " "
                        + body + "\n");
    }

    @Test
    void curlChunkedUpload(@TempDir Path dir) throws Exception {
        byte[] data = new byte[300_000];
        new Random(42).nextBytes(data);
        for (int i = 0; i < 32; i++) {
            data[i] = (byte) ('a' + i % 26);
        }
        Path file = Files.write(dir.resolve("upload.bin"), data);
        String answer = curl("-H", "Transfer-Encoding: chunked", "--data-binary", "@" + file, url("/upload"));
        assertThat(answer).isEqualTo("POST /upload " + data.length + " " + crc(data) + " "
                + new String(data, 0, 32, StandardCharsets.ISO_8859_1) + "\n");
    }

    @Test
    void curlDecodesAGzipResponseByteForByte() throws Exception {
        // -D - prints the response head before the (decoded) body.
        String answer = curl("--compressed", "-H", "Accept-Encoding: gzip", "-D", "-", url("/big"));
        int split = answer.indexOf("\r\n\r\n");
        assertThat(split).isPositive();
        String head = answer.substring(0, split).toLowerCase(java.util.Locale.ROOT);
        assertThat(head).contains("content-encoding: gzip").contains("vary: accept-encoding");
        assertThat(answer.substring(split + 4)).isEqualTo(BIG_TEXT);
    }

    @Test
    void curlDecodesADeflateResponseByteForByte() throws Exception {
        String answer = curl("--compressed", "-H", "Accept-Encoding: deflate", "-D", "-", url("/big"));
        int split = answer.indexOf("\r\n\r\n");
        assertThat(answer.substring(0, split).toLowerCase(java.util.Locale.ROOT)).contains("content-encoding: deflate");
        assertThat(answer.substring(split + 4)).isEqualTo(BIG_TEXT);
    }

    /** Whether this curl was built with {@code feature} (as listed on the "Features:" line of {@code curl -V}). */
    private static boolean curlHas(String feature) throws Exception {
        String version = curl("-V");
        for (String line : version.split("\n")) {
            if (line.startsWith("Features:")) {
                return List.of(line.substring("Features:".length()).trim().split("\\s+")).contains(feature);
            }
        }
        return false;
    }

    @ParameterizedTest
    @CsvSource({"BROTLI, brotli", "ZSTD, zstd"})
    void curlDecodesABrotliOrZstdResponseByteForByte(CompressionLibrary library, String curlFeature)
            throws Exception {
        assertThat(library.unavailabilityCause()).as("the testsuite puts brotli4j and zstd-jni on the class path")
                .isNull();
        String coding = library.contentCoding();
        Assumptions.assumeTrue(curlHas(curlFeature), "this curl was built without " + curlFeature);
        String answer = curl("--compressed", "-H", "Accept-Encoding: " + coding, "-D", "-", url("/big"));
        int split = answer.indexOf("\r\n\r\n");
        assertThat(split).isPositive();
        String head = answer.substring(0, split).toLowerCase(java.util.Locale.ROOT);
        assertThat(head).contains("content-encoding: " + coding).contains("vary: accept-encoding");
        assertThat(answer.substring(split + 4)).isEqualTo(BIG_TEXT);
    }

    @Test
    void curlCompressedWithItsOwnAcceptEncodingGetsTheBestCodingItLists() throws Exception {
        // curl --compressed sends every coding it was built with; br wins ties, then zstd, then gzip.
        String expected = curlHas("brotli") ? "br" : curlHas("zstd") ? "zstd" : "gzip";
        String answer = curl("--compressed", "-D", "-", url("/big"));
        int split = answer.indexOf("\r\n\r\n");
        assertThat(answer.substring(0, split).toLowerCase(java.util.Locale.ROOT))
                .contains("content-encoding: " + expected);
        assertThat(answer.substring(split + 4)).isEqualTo(BIG_TEXT);
    }

    @Test
    void aGzipUploadIsDecompressedBeforeTheHandler(@TempDir Path dir) throws Exception {
        byte[] original = BIG_TEXT.getBytes(StandardCharsets.ISO_8859_1);
        Path gz = dir.resolve("body.gz");
        try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(original);
        }
        assertThat(Files.size(gz)).isLessThan(original.length / 2);
        String answer = curl("-H", "Content-Encoding: gzip", "-H", "Content-Type: text/plain",
                "--data-binary", "@" + gz, url("/gz"));
        assertThat(answer).startsWith("POST /gz " + original.length + " " + crc(original) + " ");
    }

    @Test
    void curlReusesTheConnectionForTwoUrls() throws Exception {
        String answer = curl("--write-out", "[%{num_connects}]", url("/one"), url("/two"));
        assertThat(answer).isEqualTo("GET /one 0 0 \n[1]GET /two 0 0 \n[0]");
        assertThat(connections.get()).isEqualTo(1);
    }

    @Test
    void weirClientPipelinesRequestsAndPairsTheResponses() throws Exception {
        CompletableFuture<List<String>> done = new CompletableFuture<>();
        Bootstrap b = new Bootstrap().group(group).channel(NioSocketChannel.class).handler(new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpClientCodec(), new ChannelHandler() {
                    private final List<String> answers = new ArrayList<>();
                    private final StringBuilder current = new StringBuilder();

                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        try {
                            if (msg instanceof HttpResponse res) {
                                current.setLength(0);
                                current.append(res.status().code()).append(' ')
                                        .append(res.headers().get(HttpHeaderNames.CONTENT_LENGTH)).append(' ');
                            }
                            if (msg instanceof HttpContent c) {
                                current.append(c.content().toString(StandardCharsets.ISO_8859_1));
                            }
                            if (msg instanceof LastHttpContent last) {
                                if (last.decoderResult().isFailure()) {
                                    done.completeExceptionally(last.decoderResult().cause());
                                }
                                answers.add(current.toString());
                                if (answers.size() == 3) {
                                    done.complete(answers);
                                }
                            }
                        } finally {
                            ReferenceCountUtil.release(msg);
                        }
                    }

                    @Override
                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                        done.completeExceptionally(cause);
                    }
                });
            }
        });
        ChannelFuture f = b.connect(server.localAddress());
        assertThat(f.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(f.cause()).isNull();
        Channel client = f.channel();
        try {
            // RFC 9112 §3.2: every HTTP/1.1 request carries Host; the server answers 400 to one that does not.
            DefaultFullHttpRequest getRequest = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/a");
            getRequest.headers().set(HttpHeaderNames.HOST, "127.0.0.1");
            client.write(getRequest);
            DefaultFullHttpRequest headRequest = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.HEAD,
                    "/b");
            headRequest.headers().set(HttpHeaderNames.HOST, "127.0.0.1");
            client.write(headRequest);
            DefaultFullHttpRequest post = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/c",
                    Unpooled.copiedBuffer("xyz", StandardCharsets.US_ASCII));
            post.headers().set(HttpHeaderNames.CONTENT_LENGTH, 3).set(HttpHeaderNames.HOST, "127.0.0.1");
            client.writeAndFlush(post);
            List<String> answers = done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            String get = "GET /a 0 0 \n";
            String head = "HEAD /b 0 0 \n";
            String postBody = "POST /c 3 " + crc("xyz".getBytes(StandardCharsets.US_ASCII)) + " xyz\n";
            // HEAD: the Content-Length a GET would get, and no body.
            assertThat(answers).containsExactly("200 " + get.length() + " " + get, "200 " + head.length() + " ",
                    "200 " + postBody.length() + " " + postBody);
        } finally {
            client.close().await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
    }
}
