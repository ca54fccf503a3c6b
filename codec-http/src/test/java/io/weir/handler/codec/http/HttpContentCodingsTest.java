package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpContentCompressorTest.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.aayushatharva.brotli4j.decoder.BrotliInputStream;
import com.aayushatharva.brotli4j.encoder.Encoder;
import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdInputStream;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.CompositeByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.compression.ContentDecoder;
import io.weir.handler.codec.compression.ContentEncoder;
import io.weir.handler.codec.compression.ContentEncoderCache;
import io.weir.handler.codec.compression.CompressionLibrary;
import io.weir.handler.codec.compression.CompressionOptions;
import io.weir.handler.codec.compression.DecompressionException;
import io.weir.handler.codec.compression.DecompressionLimitExceededException;
import io.weir.util.ReferenceCountUtil;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** brotli and zstd beside gzip and deflate: the choice, the round trips, the limits, the failures. */
class HttpContentCodingsTest {
    private static final io.weir.buffer.ByteBufAllocator ALLOC = io.weir.buffer.UnpooledByteBufAllocator.DEFAULT;

    /** Decodes {@code wire} with an independent decoder: the JDK's, brotli4j's stream, zstd-jni's stream. */
    static byte[] decode(byte[] wire, String coding) throws IOException {
        try (InputStream in = switch (coding) {
            case "gzip" -> new GZIPInputStream(new ByteArrayInputStream(wire));
            case "deflate" -> new InflaterInputStream(new ByteArrayInputStream(wire));
            case "br" -> brotliInput(new ByteArrayInputStream(wire));
            case "zstd" -> new ZstdInputStream(new ByteArrayInputStream(wire));
            default -> throw new IllegalArgumentException(coding);
        }) {
            return in.readAllBytes();
        }
    }

    private static InputStream brotliInput(InputStream in) throws IOException {
        CompressionLibrary.BROTLI.ensureAvailable();
        return new BrotliInputStream(in);
    }

    static byte[] brotli(byte[] data) throws IOException {
        // brotli4j's classes do not load their native library themselves.
        CompressionLibrary.BROTLI.ensureAvailable();
        return Encoder.compress(data, new Encoder.Parameters().setQuality(5));
    }

    static byte[] zstd(byte[] data) {
        return Zstd.compress(data, 3);
    }

    private static EmbeddedChannel requested(HttpContentCompressor compressor, String acceptEncoding,
            HttpMethod method) {
        EmbeddedChannel ch = new EmbeddedChannel(compressor);
        HttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, "/");
        if (acceptEncoding != null) {
            req.headers().set(HttpHeaderNames.ACCEPT_ENCODING, acceptEncoding);
        }
        ch.writeInbound(req);
        ReferenceCountUtil.release(ch.readInbound());
        return ch;
    }

    private static FullHttpResponse full(ByteBuf body) {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body);
        HttpUtil.setContentLength(res, body.readableBytes());
        return res;
    }

    private static String chosen(HttpContentCompressor compressor, String accept) {
        EmbeddedChannel ch = requested(compressor, accept, HttpMethod.GET);
        ch.writeOutbound(full(Unpooled.copiedBuffer(text(4096))));
        FullHttpResponse res = ch.readOutbound();
        String ce = res.headers().get(HttpHeaderNames.CONTENT_ENCODING);
        res.release();
        assertThat(ch.finishAndReleaseAll()).isFalse();
        return ce == null ? "identity" : ce;
    }

    @Test
    void bothLibrariesLoadInTheTestJvm() {
        assertThat(CompressionLibrary.BROTLI.unavailabilityCause()).isNull();
        assertThat(CompressionLibrary.ZSTD.unavailabilityCause()).isNull();
        assertThat(CompressionLibrary.BROTLI.contentCoding()).isEqualTo("br");
        assertThat(CompressionLibrary.ZSTD.contentCoding()).isEqualTo("zstd");
        CompressionLibrary.BROTLI.ensureAvailable();
        CompressionLibrary.ZSTD.ensureAvailable();
        assertThat(new HttpContentCompressor().offers("br")).isTrue();
        assertThat(new HttpContentCompressor().offers("zstd")).isTrue();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "br                                  | br",
            "zstd                                | zstd",
            "gzip, deflate, br, zstd             | br",
            "gzip, deflate, br;q=0.9, zstd       | zstd",
            "zstd, gzip                          | zstd",
            "gzip, deflate, zstd;q=0.5           | gzip",
            "br;q=0.5, zstd;q=0.5, gzip;q=0.5    | br",
            "br;q=0.4, gzip;q=0.5                | gzip",
            "br;q=0, zstd;q=0, gzip              | gzip",
            "br;q=0, *                           | zstd",
            "br;q=0, zstd;q=0, *                 | gzip",
            "*                                   | br",
            "*;q=0.5, gzip                       | gzip",
            "BR                                  | br",
            "ZSTD;Q=1                            | zstd",
            "identity;q=1, br;q=0.5              | identity",
            "br;q=0, zstd;q=0                    | identity",
            "x-br, x-zstd                        | identity",
    })
    void defaultCompressorPrefersBrThenZstdThenGzipThenDeflate(String accept, String expected) {
        assertThat(chosen(new HttpContentCompressor(), accept)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "br, zstd, gzip, deflate             | gzip",
            "br, zstd                            | identity",
            "br, deflate                         | deflate",
            "*                                   | gzip",
    })
    void compressorRestrictedToZlibNeverOffersBrOrZstd(String accept, String expected) {
        HttpContentCompressor zlibOnly = new HttpContentCompressor(0, CompressionOptions.gzip(),
                CompressionOptions.deflate());
        assertThat(zlibOnly.offers("br")).isFalse();
        assertThat(zlibOnly.offers("zstd")).isFalse();
        assertThat(chosen(zlibOnly, accept)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "br, zstd, gzip                      | zstd",
            "br                                  | identity",
            "br, gzip                            | gzip",
            "*                                   | zstd",
    })
    void compressorWithBrotliLeftOutFallsBackToTheNextCoding(String accept, String expected) {
        HttpContentCompressor noBrotli = new HttpContentCompressor(0, CompressionOptions.zstd(),
                CompressionOptions.gzip());
        assertThat(chosen(noBrotli, accept)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({"br, 1", "br, 100", "br, 16384", "br, 300000", "zstd, 1", "zstd, 100", "zstd, 16384",
            "zstd, 300000", "gzip, 16384", "deflate, 16384"})
    void fullResponseRoundTripsThroughEachCoding(String coding, int size) throws IOException {
        byte[] body = text(size);
        EmbeddedChannel ch = requested(new HttpContentCompressor(0), coding, HttpMethod.GET);
        ch.writeOutbound(full(Unpooled.copiedBuffer(body)));
        FullHttpResponse res = ch.readOutbound();
        byte[] wire = ByteBufUtil.getBytes(res.content());
        assertThat(res.headers().get(HttpHeaderNames.CONTENT_ENCODING)).isEqualTo(coding);
        assertThat(res.headers().getInt(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo(wire.length);
        if (size >= 16384) {
            assertThat(wire.length).isLessThan(size / 8);
        }
        assertThat(decode(wire, coding)).isEqualTo(body);

        // And back through Weir's own decompressor.
        EmbeddedChannel client = new EmbeddedChannel(new HttpContentDecompressor());
        client.writeInbound(res);
        FullHttpResponse plain = client.readInbound();
        assertThat(ByteBufUtil.getBytes(plain.content())).isEqualTo(body);
        assertThat(plain.headers().getInt(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo(size);
        assertThat(plain.headers().contains(HttpHeaderNames.CONTENT_ENCODING)).isFalse();
        plain.release();
        assertThat(client.finishAndReleaseAll()).isFalse();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"br", "zstd"})
    void incompressibleHeapDirectAndCompositeBodiesRoundTrip(String coding) throws IOException {
        byte[] random = new byte[200_000];
        new Random(7).nextBytes(random);
        ByteBuf direct = Unpooled.directBuffer(random.length).writeBytes(random);
        CompositeByteBuf composite = Unpooled.compositeBuffer();
        composite.addComponent(true, Unpooled.copiedBuffer(random, 0, 1000));
        composite.addComponent(true, Unpooled.directBuffer(random.length).writeBytes(random, 1000,
                random.length - 1000));
        ByteBuf[] bodies = {Unpooled.copiedBuffer(random), direct, composite};
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
        for (ByteBuf body : bodies) {
            HttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
            req.headers().set(HttpHeaderNames.ACCEPT_ENCODING, coding);
            ch.writeInbound(req);
            ReferenceCountUtil.release(ch.readInbound());
            ch.writeOutbound(full(body));
            FullHttpResponse out = ch.readOutbound();
            assertThat(out.headers().get(HttpHeaderNames.CONTENT_ENCODING)).isEqualTo(coding);
            assertThat(decode(ByteBufUtil.getBytes(out.content()), coding)).isEqualTo(random);
            out.release();
            assertThat(body.refCnt()).isZero();
        }
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"br", "zstd", "gzip", "deflate"})
    void streamedChunksDecodeOnArrivalThroughTheDecompressor(String coding) throws IOException {
        EmbeddedChannel server = requested(new HttpContentCompressor(), coding, HttpMethod.GET);
        EmbeddedChannel client = new EmbeddedChannel(new HttpContentDecompressor());
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setContentLength(head, 4 * 8192);
        server.writeOutbound(head);
        HttpResponse outHead = server.readOutbound();
        assertThat(outHead.headers().get(HttpHeaderNames.CONTENT_ENCODING)).isEqualTo(coding);
        assertThat(HttpUtil.isTransferEncodingChunked(outHead)).isTrue();
        assertThat(outHead.headers().contains(HttpHeaderNames.CONTENT_LENGTH)).isFalse();
        client.writeInbound(outHead);
        assertThat((Object) client.readInbound()).isSameAs(outHead);

        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        for (int i = 0; i < 3; i++) {
            byte[] chunk = text(8192 + i * 1000);
            chunk[0] = (byte) i;
            sent.writeBytes(chunk);
            server.writeOutbound(new DefaultHttpContent(Unpooled.copiedBuffer(chunk)));
            HttpContent c = server.readOutbound();
            assertThat(c).isNotInstanceOf(LastHttpContent.class);
            wire.writeBytes(ByteBufUtil.getBytes(c.content()));
            client.writeInbound(c);
            // Flushed per chunk: what arrived so far decodes to everything sent so far.
            ByteArrayOutputStream decoded = new ByteArrayOutputStream();
            for (Object o; (o = client.readInbound()) != null; ) {
                decoded.writeBytes(ByteBufUtil.getBytes(((HttpContent) o).content()));
                ReferenceCountUtil.release(o);
            }
            assertThat(decoded.size()).as("decoded after chunk %d", i).isEqualTo(8192 + i * 1000);
        }
        server.writeOutbound(new DefaultLastHttpContent(Unpooled.copiedBuffer(text(100))));
        sent.writeBytes(text(100));
        LastHttpContent last = server.readOutbound();
        wire.writeBytes(ByteBufUtil.getBytes(last.content()));
        client.writeInbound(last);
        ByteArrayOutputStream tail = new ByteArrayOutputStream();
        boolean sawLast = false;
        for (Object o; (o = client.readInbound()) != null; ) {
            tail.writeBytes(ByteBufUtil.getBytes(((HttpContent) o).content()));
            sawLast = o instanceof LastHttpContent;
            ReferenceCountUtil.release(o);
        }
        assertThat(sawLast).isTrue();
        assertThat(tail.toByteArray()).isEqualTo(text(100));
        assertThat(decode(wire.toByteArray(), coding)).isEqualTo(sent.toByteArray());
        assertThat(server.finishAndReleaseAll()).isFalse();
        assertThat(client.finishAndReleaseAll()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"br", "zstd"})
    void streamedEmptyBodyIsAValidEmptyStream(String coding) throws IOException {
        EmbeddedChannel ch = requested(new HttpContentCompressor(), coding, HttpMethod.GET);
        ch.writeOutbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK),
                LastHttpContent.EMPTY_LAST_CONTENT);
        HttpResponse head = ch.readOutbound();
        assertThat(head.headers().get(HttpHeaderNames.CONTENT_ENCODING)).isEqualTo(coding);
        LastHttpContent last = ch.readOutbound();
        byte[] wire = ByteBufUtil.getBytes(last.content());
        last.release();
        assertThat(wire).isNotEmpty();
        assertThat(decode(wire, coding)).isEmpty();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"br", "zstd"})
    void emptyFullResponseIsLeftAlone(String coding) {
        EmbeddedChannel ch = requested(new HttpContentCompressor(0), coding, HttpMethod.GET);
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        FullHttpResponse out = ch.readOutbound();
        assertThat(out.headers().contains(HttpHeaderNames.CONTENT_ENCODING)).isFalse();
        assertThat(out.content().readableBytes()).isZero();
        out.release();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"br, 204", "br, 304", "zstd, 204", "zstd, 304"})
    void bodilessStatusesAreLeftAlone(String coding, int code) {
        EmbeddedChannel ch = requested(new HttpContentCompressor(), coding, HttpMethod.GET);
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(code)));
        FullHttpResponse out = ch.readOutbound();
        assertThat(out.headers().contains(HttpHeaderNames.CONTENT_ENCODING)).isFalse();
        assertThat(out.headers().contains(HttpHeaderNames.VARY)).isFalse();
        out.release();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"br", "zstd"})
    void headResponseIsLeftAlone(String coding) {
        EmbeddedChannel ch = requested(new HttpContentCompressor(), coding, HttpMethod.HEAD);
        FullHttpResponse res = full(Unpooled.copiedBuffer(text(4096)));
        ch.writeOutbound(res);
        FullHttpResponse out = ch.readOutbound();
        assertThat(out.headers().contains(HttpHeaderNames.CONTENT_ENCODING)).isFalse();
        assertThat(out.content().readableBytes()).isEqualTo(4096);
        out.release();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void manyResponsesOnOneChannelMixingCodingsEachDecodeOnTheirOwn() throws IOException {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
        String[] codings = {"zstd", "br", "zstd", "gzip", "zstd", "br", "deflate", "zstd"};
        for (int i = 0; i < codings.length; i++) {
            HttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/" + i);
            req.headers().set(HttpHeaderNames.ACCEPT_ENCODING, codings[i]);
            ch.writeInbound(req);
            ReferenceCountUtil.release(ch.readInbound());
            byte[] body = text(2000 + i * 777);
            body[0] = (byte) i;
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            if (i % 2 == 0) {
                ch.writeOutbound(full(Unpooled.copiedBuffer(body)));
                FullHttpResponse out = ch.readOutbound();
                assertThat(out.headers().get(HttpHeaderNames.CONTENT_ENCODING)).isEqualTo(codings[i]);
                wire.writeBytes(ByteBufUtil.getBytes(out.content()));
                out.release();
            } else {
                ch.writeOutbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK),
                        new DefaultHttpContent(Unpooled.copiedBuffer(body, 0, 1000)),
                        new DefaultLastHttpContent(Unpooled.copiedBuffer(body, 1000, body.length - 1000)));
                for (Object o; (o = ch.readOutbound()) != null; ) {
                    if (o instanceof HttpContent c) {
                        wire.writeBytes(ByteBufUtil.getBytes(c.content()));
                    }
                    ReferenceCountUtil.release(o);
                }
            }
            assertThat(decode(wire.toByteArray(), codings[i])).as("response %d", i).isEqualTo(body);
        }
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"br", "zstd"})
    void handlerRemovedMidBodyFreesTheEncoderAndTheNextChannelStillWorks(String coding) throws IOException {
        HttpContentCompressor compressor = new HttpContentCompressor();
        EmbeddedChannel ch = requested(compressor, coding, HttpMethod.GET);
        ch.writeOutbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK),
                new DefaultHttpContent(Unpooled.copiedBuffer(text(5000))));
        ch.pipeline().remove(compressor);
        assertThat(ch.finishAndReleaseAll()).isTrue();

        EmbeddedChannel again = requested(new HttpContentCompressor(), coding, HttpMethod.GET);
        byte[] body = text(5000);
        again.writeOutbound(full(Unpooled.copiedBuffer(body)));
        FullHttpResponse out = again.readOutbound();
        assertThat(decode(ByteBufUtil.getBytes(out.content()), coding)).isEqualTo(body);
        out.release();
        assertThat(again.finishAndReleaseAll()).isFalse();
    }

    @Test
    void zstdContextIsReusableAfterAStreamedBodyIsAbandonedMidway() throws IOException {
        // A failure mid-body closes the connection in HttpContentEncoder; a subclass closing its encoder itself
        // is the only way to reuse the context afterwards, so the cache is driven directly.
        ContentEncoderCache cache = new ContentEncoderCache(CompressionOptions.zstd());
        try {
            ContentEncoder encoder = cache.acquire("zstd", 5000);
            ByteBuf start = Unpooled.copiedBuffer(text(100));
            encoder.encode(start, ALLOC).release();
            start.release();
            encoder.close();
            byte[] body = text(3000);
            assertThat(cache.acquire("zstd", -1)).as("the context is reused").isSameAs(encoder);
            ByteBuf in = Unpooled.copiedBuffer(body);
            ByteBuf first = encoder.encode(in, ALLOC);
            in.release();
            ByteBuf last = encoder.finish(ALLOC);
            encoder.close();
            byte[] wire = new byte[first.readableBytes() + last.readableBytes()];
            first.readBytes(wire, 0, first.readableBytes());
            last.readBytes(wire, wire.length - last.readableBytes(), last.readableBytes());
            first.release();
            last.release();
            assertThat(decode(wire, "zstd")).isEqualTo(body);
        } finally {
            cache.end();
        }
    }

    @Test
    void brotliAndZstdOptionsAreApplied() throws IOException {
        byte[] body = text(200_000);
        for (int windowLog : new int[] {10, 23}) {
            EmbeddedChannel ch = requested(new HttpContentCompressor(0, CompressionOptions.zstd(19, windowLog)),
                    "zstd", HttpMethod.GET);
            ch.writeOutbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK),
                    new DefaultLastHttpContent(Unpooled.copiedBuffer(body)));
            ReferenceCountUtil.release(ch.readOutbound());
            LastHttpContent last = ch.readOutbound();
            byte[] wire = ByteBufUtil.getBytes(last.content());
            last.release();
            // Frame header descriptor (RFC 8878 §3.1.1.1.2): exponent = windowLog - 10 in the high five bits.
            int descriptor = wire[5] & 0xFF;
            assertThat((descriptor >>> 3) + 10).isEqualTo(windowLog);
            assertThat(decode(wire, "zstd")).isEqualTo(body);
            assertThat(ch.finishAndReleaseAll()).isFalse();
        }
        int[] sizes = new int[2];
        int[] qualities = {0, 9};
        for (int i = 0; i < 2; i++) {
            EmbeddedChannel ch = requested(new HttpContentCompressor(0, CompressionOptions.brotli(qualities[i], 16)),
                    "br", HttpMethod.GET);
            ch.writeOutbound(full(Unpooled.copiedBuffer(body)));
            FullHttpResponse out = ch.readOutbound();
            byte[] wire = ByteBufUtil.getBytes(out.content());
            out.release();
            sizes[i] = wire.length;
            assertThat(decode(wire, "br")).isEqualTo(body);
            assertThat(ch.finishAndReleaseAll()).isFalse();
        }
        assertThat(sizes[1]).as("quality 9 beats quality 0").isLessThan(sizes[0]);
    }

    @Test
    void badOptionsFailFastWithTheOffendingValue() {
        assertThatThrownBy(() -> CompressionOptions.brotli(12, 22)).hasMessageContaining("12");
        assertThatThrownBy(() -> CompressionOptions.brotli(4, 25)).hasMessageContaining("25");
        assertThatThrownBy(() -> CompressionOptions.brotli(4, 9)).hasMessageContaining("9");
        assertThatThrownBy(() -> CompressionOptions.zstd(23, 0)).hasMessageContaining("23");
        assertThatThrownBy(() -> CompressionOptions.zstd(3, 24)).hasMessageContaining("24");
        assertThatThrownBy(() -> CompressionOptions.zstd(3, 9)).hasMessageContaining("9");
        assertThatThrownBy(() -> CompressionOptions.gzip(10)).hasMessageContaining("10");
        assertThatThrownBy(() -> CompressionOptions.deflate(0)).hasMessageContaining("0");
        assertThatThrownBy(() -> new HttpContentCompressor(0, CompressionOptions.gzip(), CompressionOptions.gzip(1)))
                .hasMessageContaining("gzip");
        assertThatThrownBy(() -> new HttpContentCompressor(-5, CompressionOptions.gzip()))
                .hasMessageContaining("-5");
    }

    // --- Decompression: bombs and corrupt input ---

    private static void assertBombStopped(String coding, byte[] bomb, HttpContentDecompressor decompressor,
            String message) {
        EmbeddedChannel ch = new EmbeddedChannel(decompressor);
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/",
                Unpooled.copiedBuffer(bomb));
        req.headers().set(HttpHeaderNames.CONTENT_ENCODING, coding);
        assertThatThrownBy(() -> ch.writeInbound(req))
                .isInstanceOf(DecompressionLimitExceededException.class)
                .hasMessageContaining(message);
        assertThat(req.refCnt()).isZero();
        assertThat((Object) ch.readInbound()).isNull();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void brotliBombOf64MiBOfZerosIsStoppedWithATypedException() throws IOException {
        byte[] bomb = brotli(new byte[64 * 1024 * 1024]);
        assertThat(bomb.length).isLessThan(64 * 1024);
        assertBombStopped("br", bomb, new HttpContentDecompressor(), "100 times");
        assertBombStopped("br", bomb, new HttpContentDecompressor(1024 * 1024, 1_000_000), "exceeds 1048576 bytes");
    }

    @Test
    void zstdBombOf64MiBOfZerosIsStoppedWithATypedException() {
        byte[] bomb = zstd(new byte[64 * 1024 * 1024]);
        assertThat(bomb.length).isLessThan(64 * 1024);
        assertBombStopped("zstd", bomb, new HttpContentDecompressor(), "100 times");
        assertBombStopped("zstd", bomb, new HttpContentDecompressor(1024 * 1024, 1_000_000),
                "exceeds 1048576 bytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"br", "zstd"})
    void streamedBombIsStoppedEarlyAndTheRestOfTheBodyIsDropped(String coding) throws IOException {
        byte[] zeros = new byte[64 * 1024 * 1024];
        byte[] bomb = coding.equals("br") ? brotli(zeros) : zstd(zeros);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor(4 * 1024 * 1024, 1_000_000));
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().set(HttpHeaderNames.CONTENT_ENCODING, coding);
        ch.writeInbound(head);
        ReferenceCountUtil.release(ch.readInbound());
        int half = bomb.length / 2;
        DefaultHttpContent first = new DefaultHttpContent(Unpooled.copiedBuffer(bomb, 0, half));
        assertThatThrownBy(() -> ch.writeInbound(first))
                .isInstanceOf(DecompressionLimitExceededException.class)
                .satisfies(e -> assertThat(((DecompressionLimitExceededException) e).decompressedBytes())
                        .isLessThanOrEqualTo(4 * 1024 * 1024 + ContentDecoder.MAX_PIECE_BYTES));
        assertThat(first.refCnt()).isZero();
        long passedOn = 0;
        for (Object o; (o = ch.readInbound()) != null; ) {
            HttpContent c = (HttpContent) o;
            assertThat(c.content().readableBytes()).isLessThanOrEqualTo(ContentDecoder.MAX_PIECE_BYTES);
            passedOn += c.content().readableBytes();
            c.release();
        }
        assertThat(passedOn).isLessThanOrEqualTo(4 * 1024 * 1024);
        DefaultLastHttpContent rest = new DefaultLastHttpContent(Unpooled.copiedBuffer(bomb, half,
                bomb.length - half));
        ch.writeInbound(rest);
        assertThat(rest.refCnt()).isZero();
        assertThat((Object) ch.readInbound()).as("the rest of the bomb is dropped").isNull();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 13, 4096, 1 << 20})
    void brotliAndZstdSplitAnywhereDecode(int step) throws IOException {
        byte[] body = text(100_000);
        for (String coding : new String[] {"br", "zstd"}) {
            byte[] wire = coding.equals("br") ? brotli(body) : zstd(body);
            EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_ENCODING, coding);
            ch.writeInbound(head);
            HttpResponse outHead = ch.readInbound();
            assertThat(outHead.headers().contains(HttpHeaderNames.CONTENT_ENCODING)).isFalse();
            for (int i = 0; i < wire.length; i += step) {
                int n = Math.min(step, wire.length - i);
                ByteBuf piece = step % 2 == 0 ? Unpooled.directBuffer(n).writeBytes(wire, i, n)
                        : Unpooled.copiedBuffer(wire, i, n);
                ch.writeInbound(i + n == wire.length ? new DefaultLastHttpContent(piece)
                        : new DefaultHttpContent(piece));
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            boolean sawLast = false;
            for (Object o; (o = ch.readInbound()) != null; ) {
                HttpContent c = (HttpContent) o;
                out.writeBytes(ByteBufUtil.getBytes(c.content()));
                sawLast = c instanceof LastHttpContent;
                c.release();
            }
            assertThat(sawLast).isTrue();
            assertThat(out.toByteArray()).as(coding).isEqualTo(body);
            assertThat(ch.finishAndReleaseAll()).isFalse();
        }
    }

    @Test
    void concatenatedZstdFramesDecodeAsOneBodyEvenWhenSplitAtTheFrameBoundary() {
        byte[] a = zstd(text(3000));
        byte[] b = zstd("tail".getBytes());
        for (boolean split : new boolean[] {false, true}) {
            EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_ENCODING, "zstd");
            ch.writeInbound(head);
            ReferenceCountUtil.release(ch.readInbound());
            if (split) {
                ch.writeInbound(new DefaultHttpContent(Unpooled.copiedBuffer(a)),
                        new DefaultLastHttpContent(Unpooled.copiedBuffer(b)));
            } else {
                ch.writeInbound(new DefaultLastHttpContent(Unpooled.copiedBuffer(concat(a, b))));
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (Object o; (o = ch.readInbound()) != null; ) {
                out.writeBytes(ByteBufUtil.getBytes(((HttpContent) o).content()));
                ReferenceCountUtil.release(o);
            }
            byte[] expected = Arrays.copyOf(text(3000), 3004);
            System.arraycopy("tail".getBytes(), 0, expected, 3000, 4);
            assertThat(out.toByteArray()).isEqualTo(expected);
            assertThat(ch.finishAndReleaseAll()).isFalse();
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** A zstd frame that declares a 128 MiB window and no content size, as an attacker would send. */
    private static byte[] zstdWithHugeWindow() {
        try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
            ctx.setLevel(3);
            ctx.setWindowLog(27);
            ctx.setContentSize(false);
            ByteBuffer src = ByteBuffer.allocateDirect(1000);
            src.put(text(1000)).flip();
            ByteBuffer dst = ByteBuffer.allocateDirect(4096);
            // Input first, end later: ending in the first call would tell zstd the size and shrink the window.
            ctx.compressDirectByteBufferStream(dst, src, EndDirective.CONTINUE);
            assertThat(ctx.compressDirectByteBufferStream(dst, src, EndDirective.END)).isTrue();
            dst.flip();
            byte[] out = new byte[dst.remaining()];
            dst.get(out);
            return out;
        }
    }

    @Test
    void corruptTruncatedTrailingOrOversizedWindowDataIsRejected() throws IOException {
        byte[] br = brotli(text(5000));
        byte[] zs = zstd(text(5000));
        Object[][] cases = {
                {"br", Arrays.copyOf(br, br.length - 3), "ended before the end of its brotli stream"},
                {"br", Arrays.copyOf(br, br.length + 1), "brotli"},
                {"br", new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}, "corrupt brotli"},
                {"zstd", Arrays.copyOf(zs, zs.length - 3), "ended before the end of its zstd frame"},
                {"zstd", concat(zs, new byte[] {0x28}), "ended before the end of its zstd frame"},
                {"zstd", concat(zs, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}), "corrupt zstd"},
                {"zstd", new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, "corrupt zstd"},
                {"zstd", zstdWithHugeWindow(), "window over 8388608 bytes"},
        };
        for (Object[] c : cases) {
            EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.copiedBuffer((byte[]) c[1]));
            res.headers().set(HttpHeaderNames.CONTENT_ENCODING, (String) c[0]);
            assertThat(catchThrowable(() -> ch.writeInbound(res))).as("%s %s", c[0], c[2])
                    .isInstanceOf(DecompressionException.class)
                    .hasMessageContaining((String) c[2]);
            assertThat(res.refCnt()).isZero();
            assertThat(ch.finishAndReleaseAll()).isFalse();
        }
        // A corrupt zstd checksum, when the sender wrote one, is caught too.
        try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
            byte[] withChecksum = ctx.setChecksum(true).compress(text(5000));
            withChecksum[withChecksum.length - 1] ^= 1;
            EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.copiedBuffer(withChecksum));
            res.headers().set(HttpHeaderNames.CONTENT_ENCODING, "zstd");
            assertThatThrownBy(() -> ch.writeInbound(res)).isInstanceOf(DecompressionException.class)
                    .hasMessageContaining("checksum");
            assertThat(ch.finishAndReleaseAll()).isFalse();
        }
    }

    @Test
    void zstdWindowUpTo8MiBIsAccepted() throws IOException {
        byte[] body = text(9 * 1024 * 1024);
        byte[] wire;
        try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
            ctx.setLevel(3);
            ctx.setWindowLog(23);
            ctx.setContentSize(false);
            ByteBuffer src = ByteBuffer.allocateDirect(body.length);
            src.put(body).flip();
            ByteBuffer dst = ByteBuffer.allocateDirect(body.length);
            ctx.compressDirectByteBufferStream(dst, src, EndDirective.CONTINUE);
            assertThat(ctx.compressDirectByteBufferStream(dst, src, EndDirective.END)).isTrue();
            assertThat((dst.get(5) & 0xFF) >>> 3).as("window exponent").isEqualTo(23 - 10);
            dst.flip();
            wire = new byte[dst.remaining()];
            dst.get(wire);
        }
        // Repetitive text: far more than 100:1, so the ratio limit is lifted for this body.
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor(64 * 1024 * 1024, 1_000_000));
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.copiedBuffer(wire));
        res.headers().set(HttpHeaderNames.CONTENT_ENCODING, "zstd");
        ch.writeInbound(res);
        FullHttpResponse out = ch.readInbound();
        assertThat(ByteBufUtil.getBytes(out.content())).isEqualTo(body);
        out.release();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }
}
