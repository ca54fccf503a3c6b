package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.compression.ContentEncoder;
import io.weir.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpContentCompressorTest {

    static byte[] text(int size) {
        byte[] b = new byte[size];
        byte[] words = "the quick brown fox jumps over the lazy dog; weir codec ".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < size; i++) {
            b[i] = words[i % words.length];
        }
        return b;
    }

    private static EmbeddedChannel requested(String acceptEncoding, HttpMethod method) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
        HttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, "/");
        if (acceptEncoding != null) {
            req.headers().set(HttpHeaderNames.ACCEPT_ENCODING, acceptEncoding);
        }
        ch.writeInbound(req);
        ReferenceCountUtil.release(ch.readInbound());
        return ch;
    }

    private static FullHttpResponse full(byte[] body) {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.copiedBuffer(body));
        HttpUtil.setContentLength(res, body.length);
        return res;
    }

    static byte[] gunzip(byte[] data, String coding) throws IOException {
        return HttpContentCodingsTest.decode(data, coding);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "gzip                          | gzip",
            "deflate                       | deflate",
            "gzip, deflate, br             | br",
            "deflate;q=1, gzip;q=0.5       | deflate",
            "gzip;q=0, deflate             | deflate",
            "gzip;q=0, *                   | br",
            "gzip;q=0, br;q=0, zstd;q=0, * | deflate",
            "x-gzip                        | gzip",
            "*                             | br",
            "br, zstd                      | br",
            "compress, exi                 | identity",
            "gzip;q=0, deflate;q=0         | identity",
            "identity                      | identity",
            "identity;q=1, gzip;q=0.5      | identity",
            "*;q=0                         | identity",
            "gzip;q=0.001                  | gzip",
            "gzip;q=bogus, deflate;q=0.1   | deflate",
            "GZIP;Q=1.000                  | gzip",
            "''                            | identity",
    })
    void encodingIsChosenByQValues(String accept, String expected) throws IOException {
        EmbeddedChannel ch = requested(accept, HttpMethod.GET);
        byte[] body = text(4096);
        ch.writeOutbound(full(body));
        FullHttpResponse res = ch.readOutbound();
        try {
            String ce = res.headers().get(HttpHeaderNames.CONTENT_ENCODING);
            byte[] wire = ByteBufUtil.getBytes(res.content());
            if (expected.equals("identity")) {
                assertThat(ce).isNull();
                assertThat(wire).isEqualTo(body);
            } else {
                assertThat(ce).isEqualTo(expected);
                assertThat(res.headers().getInt(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo(wire.length);
                assertThat(wire.length).isLessThan(body.length / 4);
                assertThat(gunzip(wire, expected)).isEqualTo(body);
            }
            assertThat(res.headers().get(HttpHeaderNames.VARY)).isEqualTo("accept-encoding");
        } finally {
            res.release();
        }
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void streamedResponseIsCompressedChunkByChunkAndEachChunkIsDecodableOnArrival() throws IOException {
        EmbeddedChannel ch = requested("gzip", HttpMethod.GET);
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setContentLength(head, 3 * 8192);
        byte[] chunk = text(8192);
        ch.writeOutbound(head);
        HttpResponse outHead = ch.readOutbound();
        assertThat(outHead.headers().get(HttpHeaderNames.CONTENT_ENCODING)).isEqualTo("gzip");
        assertThat(outHead.headers().contains(HttpHeaderNames.CONTENT_LENGTH)).isFalse();
        assertThat(HttpUtil.isTransferEncodingChunked(outHead)).isTrue();

        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (int i = 0; i < 2; i++) {
            ch.writeOutbound(new DefaultHttpContent(Unpooled.copiedBuffer(chunk)));
            HttpContent c = ch.readOutbound();
            assertThat(c).isNotInstanceOf(LastHttpContent.class);
            assertThat(c.content().isReadable()).isTrue();
            wire.write(ByteBufUtil.getBytes(c.content()));
            c.release();
            // Sync-flushed: everything written so far can be decoded before the stream ends.
            assertThat(inflatePrefix(wire.toByteArray())).hasSize((i + 1) * chunk.length);
        }
        LastHttpContent last = new DefaultLastHttpContent(Unpooled.copiedBuffer(chunk));
        last.trailingHeaders().set("x-checksum", "abc");
        ch.writeOutbound(last);
        LastHttpContent outLast = ch.readOutbound();
        assertThat(outLast.trailingHeaders().get("x-checksum")).isEqualTo("abc");
        wire.write(ByteBufUtil.getBytes(outLast.content()));
        outLast.release();
        byte[] expected = new byte[3 * chunk.length];
        for (int i = 0; i < 3; i++) {
            System.arraycopy(chunk, 0, expected, i * chunk.length, chunk.length);
        }
        assertThat(gunzip(wire.toByteArray(), "gzip")).isEqualTo(expected);
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    /** Decodes as much of a gzip stream as is there, without needing its end. */
    private static byte[] inflatePrefix(byte[] gzip) {
        java.util.zip.Inflater inflater = new java.util.zip.Inflater(true);
        try {
            inflater.setInput(gzip, 10, gzip.length - 10);
            byte[] out = new byte[1 << 20];
            int n = inflater.inflate(out);
            return java.util.Arrays.copyOf(out, n);
        } catch (java.util.zip.DataFormatException e) {
            throw new AssertionError(e);
        } finally {
            inflater.end();
        }
    }

    @ParameterizedTest
    @CsvSource({"204", "304"})
    void bodilessStatusesAreLeftAlone(int code) {
        EmbeddedChannel ch = requested("gzip", HttpMethod.GET);
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(code));
        ch.writeOutbound(res);
        FullHttpResponse out = ch.readOutbound();
        assertThat(out.headers().contains(HttpHeaderNames.CONTENT_ENCODING)).isFalse();
        assertThat(out.headers().contains(HttpHeaderNames.VARY)).isFalse();
        out.release();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void headResponseIsLeftAloneAndTheNextResponseIsStillCompressed() throws IOException {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
        for (HttpMethod m : new HttpMethod[] {HttpMethod.HEAD, HttpMethod.GET}) {
            HttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, m, "/");
            req.headers().set(HttpHeaderNames.ACCEPT_ENCODING, "gzip");
            ch.writeInbound(req);
            ReferenceCountUtil.release(ch.readInbound());
        }
        HttpResponse headRes = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        HttpUtil.setContentLength(headRes, 4096);
        ch.writeOutbound(headRes, LastHttpContent.EMPTY_LAST_CONTENT);
        HttpResponse out = ch.readOutbound();
        assertThat(out.headers().contains(HttpHeaderNames.CONTENT_ENCODING)).isFalse();
        assertThat(out.headers().get(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo("4096");
        assertThat((Object) ch.readOutbound()).isSameAs(LastHttpContent.EMPTY_LAST_CONTENT);
        byte[] body = text(4096);
        ch.writeOutbound(full(body));
        FullHttpResponse get = ch.readOutbound();
        assertThat(get.headers().get(HttpHeaderNames.CONTENT_ENCODING)).isEqualTo("gzip");
        assertThat(gunzip(ByteBufUtil.getBytes(get.content()), "gzip")).isEqualTo(body);
        get.release();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void bodyBelowTheMinimumSizeIsNotCompressed() {
        EmbeddedChannel ch = requested("gzip", HttpMethod.GET);
        byte[] small = text(HttpContentCompressor.DEFAULT_MIN_CONTENT_SIZE_BYTES - 1);
        ch.writeOutbound(full(small));
        FullHttpResponse out = ch.readOutbound();
        assertThat(out.headers().contains(HttpHeaderNames.CONTENT_ENCODING)).isFalse();
        assertThat(ByteBufUtil.getBytes(out.content())).isEqualTo(small);
        out.release();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void alreadyEncodedResponseIsLeftAlone() {
        EmbeddedChannel ch = requested("gzip", HttpMethod.GET);
        FullHttpResponse res = full(text(4096));
        res.headers().set(HttpHeaderNames.CONTENT_ENCODING, "br");
        ch.writeOutbound(res);
        FullHttpResponse out = ch.readOutbound();
        assertThat(out.headers().get(HttpHeaderNames.CONTENT_ENCODING)).isEqualTo("br");
        assertThat(out.content().readableBytes()).isEqualTo(4096);
        out.release();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void interimResponsesDoNotConsumeTheRequest() {
        EmbeddedChannel ch = requested("gzip", HttpMethod.GET);
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        FullHttpResponse interim = ch.readOutbound();
        assertThat(interim.headers().contains(HttpHeaderNames.CONTENT_ENCODING)).isFalse();
        interim.release();
        ch.writeOutbound(full(text(4096)));
        FullHttpResponse out = ch.readOutbound();
        assertThat(out.headers().get(HttpHeaderNames.CONTENT_ENCODING)).isEqualTo("gzip");
        out.release();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void incompressibleDataRoundTripsThroughDirectBuffers() throws IOException {
        EmbeddedChannel ch = requested("deflate", HttpMethod.GET);
        byte[] random = new byte[100_000];
        new Random(42).nextBytes(random);
        ByteBuf direct = Unpooled.directBuffer(random.length).writeBytes(random);
        ch.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, direct));
        FullHttpResponse out = ch.readOutbound();
        assertThat(gunzip(ByteBufUtil.getBytes(out.content()), "deflate")).isEqualTo(random);
        out.release();
        assertThat(direct.refCnt()).isZero();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void compressorThenDecompressorGivesTheOriginalBack() {
        for (String coding : new String[] {"gzip", "deflate"}) {
            EmbeddedChannel ch = requested(coding, HttpMethod.GET);
            byte[] body = text(50_000);
            ch.writeOutbound(full(body));
            FullHttpResponse compressed = ch.readOutbound();
            EmbeddedChannel client = new EmbeddedChannel(new HttpContentDecompressor());
            client.writeInbound(compressed);
            FullHttpResponse plain = client.readInbound();
            assertThat(ByteBufUtil.getBytes(plain.content())).isEqualTo(body);
            assertThat(plain.headers().getInt(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo(body.length);
            assertThat(plain.headers().contains(HttpHeaderNames.CONTENT_ENCODING)).isFalse();
            plain.release();
            assertThat(client.finishAndReleaseAll()).isFalse();
            assertThat(ch.finishAndReleaseAll()).isFalse();
        }
    }

    @Test
    void manyResponsesOnOneChannelEachDecodeOnTheirOwn() throws IOException {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
        String[] codings = {"gzip", "deflate", "gzip", "gzip", "deflate"};
        for (int i = 0; i < codings.length; i++) {
            HttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/" + i);
            req.headers().set(HttpHeaderNames.ACCEPT_ENCODING, codings[i]);
            ch.writeInbound(req);
            ReferenceCountUtil.release(ch.readInbound());
            byte[] body = text(2000 + i * 777);
            body[0] = (byte) i;
            ch.writeOutbound(full(body));
            FullHttpResponse out = ch.readOutbound();
            assertThat(out.headers().get(HttpHeaderNames.CONTENT_ENCODING)).isEqualTo(codings[i]);
            assertThat(gunzip(ByteBufUtil.getBytes(out.content()), codings[i])).isEqualTo(body);
            out.release();
        }
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void http10StreamedResponseIsDelimitedByClosingNotChunked() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
        HttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_0, HttpMethod.GET, "/");
        req.headers().set(HttpHeaderNames.ACCEPT_ENCODING, "gzip");
        ch.writeInbound(req);
        ReferenceCountUtil.release(ch.readInbound());
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_0, HttpResponseStatus.OK);
        head.headers().set(HttpHeaderNames.CONNECTION, "keep-alive");
        HttpUtil.setContentLength(head, 10);
        ch.writeOutbound(head);
        HttpResponse out = ch.readOutbound();
        assertThat(HttpUtil.isTransferEncodingChunked(out)).isFalse();
        assertThat(out.headers().contains(HttpHeaderNames.CONTENT_LENGTH)).isFalse();
        assertThat(HttpUtil.isKeepAlive(out)).isFalse();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void encoderFailureMidBodyFailsTheWriteDropsTheRestAndCloses() {
        ContentEncoder failing = new ContentEncoder() {
            @Override
            public ByteBuf encode(ByteBuf in, io.weir.buffer.ByteBufAllocator alloc) {
                throw new IllegalStateException("encoder broke");
            }

            @Override
            public ByteBuf finish(io.weir.buffer.ByteBufAllocator alloc) {
                return Unpooled.buffer(0);
            }

            @Override
            public void close() {
            }
        };
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentEncoder() {
            @Override
            protected Result beginEncode(HttpResponse response, CharSequence acceptEncoding) {
                return new Result("x-test", failing);
            }
        });
        ch.writeInbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/"));
        ReferenceCountUtil.release(ch.readInbound());
        ch.write(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        DefaultHttpContent first = new DefaultHttpContent(Unpooled.copiedBuffer(new byte[] {1}));
        DefaultLastHttpContent rest = new DefaultLastHttpContent(Unpooled.copiedBuffer(new byte[] {2}));
        io.weir.channel.ChannelFuture f1 = ch.write(first);
        io.weir.channel.ChannelFuture f2 = ch.write(rest);
        assertThat(f1.cause()).hasMessage("encoder broke");
        assertThat(f2.isSuccess()).isFalse();
        assertThat(first.refCnt()).isZero();
        assertThat(rest.refCnt()).isZero();
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void existingVaryIsExtendedOnceNotDuplicated() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentCompressor());
        String[][] cases = {{"origin"}, {"Origin,  Accept-Encoding "}, {"*"}, {"cookie", "accept-encoding"}};
        String[][] expected = {{"origin", "accept-encoding"}, {"Origin,  Accept-Encoding "}, {"*"},
                {"cookie", "accept-encoding"}};
        for (int i = 0; i < cases.length; i++) {
            HttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
            req.headers().set(HttpHeaderNames.ACCEPT_ENCODING, "gzip");
            ch.writeInbound(req);
            ReferenceCountUtil.release(ch.readInbound());
            FullHttpResponse res = full(text(2048));
            for (String v : cases[i]) {
                res.headers().add(HttpHeaderNames.VARY, v);
            }
            ch.writeOutbound(res);
            FullHttpResponse out = ch.readOutbound();
            assertThat(out.headers().getAll(HttpHeaderNames.VARY)).containsExactly(expected[i]);
            out.release();
        }
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void badSettingsFailFast() {
        assertThatThrownBy(() -> new HttpContentCompressor(0, 10)).hasMessageContaining("0");
        assertThatThrownBy(() -> new HttpContentCompressor(6, -1)).hasMessageContaining("-1");
    }
}
