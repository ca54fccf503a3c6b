package io.weir.handler.codec.http;

import static io.weir.handler.codec.http.HttpContentCompressorTest.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.compression.ContentDecoder;
import io.weir.handler.codec.compression.DecompressionException;
import io.weir.handler.codec.compression.DecompressionLimitExceededException;
import io.weir.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpContentDecompressorTest {

    static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    static byte[] deflate(byte[] data, boolean raw) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, raw);
        try (DeflaterOutputStream d = new DeflaterOutputStream(out, deflater)) {
            d.write(data);
        } catch (IOException e) {
            throw new AssertionError(e);
        } finally {
            deflater.end();
        }
        return out.toByteArray();
    }

    private static HttpResponse head(String encoding) {
        HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        res.headers().set(HttpHeaderNames.CONTENT_ENCODING, encoding);
        res.headers().set(HttpHeaderNames.CONTENT_LENGTH, "123");
        return res;
    }

    /** Feeds {@code wire} in chunks of {@code step} bytes and returns the decoded body. */
    private static byte[] streamThrough(EmbeddedChannel ch, String encoding, byte[] wire, int step) {
        ch.writeInbound(head(encoding));
        HttpResponse outHead = ch.readInbound();
        assertThat(outHead.headers().contains(HttpHeaderNames.CONTENT_ENCODING)).isFalse();
        assertThat(outHead.headers().contains(HttpHeaderNames.CONTENT_LENGTH)).isFalse();
        assertThat(HttpUtil.isTransferEncodingChunked(outHead)).isTrue();
        for (int i = 0; i < wire.length; i += step) {
            int n = Math.min(step, wire.length - i);
            ByteBuf piece = Unpooled.copiedBuffer(wire, i, n);
            ch.writeInbound(i + n == wire.length ? new DefaultLastHttpContent(piece) : new DefaultHttpContent(piece));
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        boolean sawLast = false;
        for (Object o; (o = ch.readInbound()) != null; ) {
            HttpContent c = (HttpContent) o;
            assertThat(c.content().readableBytes()).isLessThanOrEqualTo(ContentDecoder.MAX_PIECE_BYTES);
            body.writeBytes(ByteBufUtil.getBytes(c.content()));
            sawLast = c instanceof LastHttpContent;
            c.release();
        }
        assertThat(sawLast).isTrue();
        return body.toByteArray();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 7, 100, 4096, 1 << 20})
    void gzipSplitAnywhereDecodes(int step) throws IOException {
        byte[] body = text(70_000);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
        assertThat(streamThrough(ch, "gzip", gzip(body), step)).isEqualTo(body);
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"deflate", "x-deflate", "DEFLATE"})
    void zlibAndRawDeflateBothDecode(String encoding) {
        byte[] body = text(30_000);
        for (boolean raw : new boolean[] {false, true}) {
            for (int step : new int[] {1, 1000}) {
                EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
                assertThat(streamThrough(ch, encoding, deflate(body, raw), step)).isEqualTo(body);
                assertThat(ch.finishAndReleaseAll()).isFalse();
            }
        }
    }

    @Test
    void gzipHeaderWithNameCommentExtraAndCrcIsSkipped() throws IOException {
        byte[] plain = gzip("hello".getBytes());
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.write(new byte[] {0x1f, (byte) 0x8b, 8, 0x02 | 0x04 | 0x08 | 0x10, 0, 0, 0, 0, 0, 3});
        wire.write(new byte[] {3, 0, 'a', 'b', 'c'});
        wire.writeBytes("name.txt\0".getBytes());
        wire.writeBytes("a comment\0".getBytes());
        wire.write(new byte[] {0x12, 0x34});
        wire.write(plain, 10, plain.length - 10);
        // A second member follows: RFC 1952 allows a series.
        wire.writeBytes(gzip(" world".getBytes()));
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
        assertThat(new String(streamThrough(ch, "x-gzip", wire.toByteArray(), 3))).isEqualTo("hello world");
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void fullMessageStaysFullWithTheDecodedLength() throws IOException {
        byte[] body = text(100_000);
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/up",
                Unpooled.copiedBuffer(gzip(body)));
        req.headers().set(HttpHeaderNames.CONTENT_ENCODING, "gzip");
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
        ch.writeInbound(req);
        FullHttpRequest out = ch.readInbound();
        assertThat(ByteBufUtil.getBytes(out.content())).isEqualTo(body);
        assertThat(out.headers().get(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo("100000");
        assertThat(out.headers().contains(HttpHeaderNames.CONTENT_ENCODING)).isFalse();
        assertThat(req.refCnt()).isZero();
        out.release();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void unknownOrAbsentEncodingPassesThroughUntouched() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
        HttpResponse compress = head("compress");
        DefaultLastHttpContent body = new DefaultLastHttpContent(Unpooled.copiedBuffer(new byte[] {1, 2, 3}));
        ch.writeInbound(compress, body);
        assertThat((Object) ch.readInbound()).isSameAs(compress);
        assertThat((Object) ch.readInbound()).isSameAs(body);
        assertThat(compress.headers().get(HttpHeaderNames.CONTENT_ENCODING)).isEqualTo("compress");
        assertThat(compress.headers().get(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo("123");
        body.release();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void decompressionBombIsStoppedEarlyWithATypedExceptionAndNothingLeaks() throws IOException {
        byte[] zeros = new byte[10 * 1024 * 1024];
        byte[] bomb = gzip(zeros);
        assertThat(bomb.length).isLessThan(20 * 1024);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor(1024 * 1024, 10_000));
        FullHttpRequest req = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/",
                Unpooled.copiedBuffer(bomb));
        req.headers().set(HttpHeaderNames.CONTENT_ENCODING, "gzip");
        assertThatThrownBy(() -> ch.writeInbound(req))
                .isInstanceOf(DecompressionLimitExceededException.class)
                .hasMessageContaining("exceeds 1048576 bytes")
                .satisfies(e -> assertThat(((DecompressionLimitExceededException) e).decompressedBytes())
                        .isLessThanOrEqualTo(1024 * 1024 + ContentDecoder.MAX_PIECE_BYTES));
        assertThat(req.refCnt()).isZero();
        assertThat((Object) ch.readInbound()).isNull();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void streamedBombIsStoppedByTheRatioAndTheRestOfTheBodyIsDropped() throws IOException {
        byte[] bomb = gzip(new byte[10 * 1024 * 1024]);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
        ch.writeInbound(head("gzip"));
        ReferenceCountUtil.release(ch.readInbound());
        int half = bomb.length / 2;
        DefaultHttpContent first = new DefaultHttpContent(Unpooled.copiedBuffer(bomb, 0, half));
        assertThatThrownBy(() -> ch.writeInbound(first))
                .isInstanceOf(DecompressionLimitExceededException.class).hasMessageContaining("100 times");
        assertThat(first.refCnt()).isZero();
        long passedOn = 0;
        for (Object o; (o = ch.readInbound()) != null; ) {
            passedOn += ((HttpContent) o).content().readableBytes();
            ReferenceCountUtil.release(o);
        }
        // Stopped just past the grace size, since the ratio there is already far above 100:1.
        assertThat(passedOn).isLessThanOrEqualTo(Math.max(HttpContentDecoder.RATIO_GRACE_BYTES, 100L * half));
        DefaultLastHttpContent rest = new DefaultLastHttpContent(
                Unpooled.copiedBuffer(bomb, half, bomb.length - half));
        ch.writeInbound(rest);
        assertThat(rest.refCnt()).isZero();
        assertThat((Object) ch.readInbound()).as("the rest of the bomb is dropped").isNull();
        // The next message on the connection is decoded normally.
        byte[] ok = text(5000);
        assertThat(streamThrough(ch, "gzip", gzip(ok), 512)).isEqualTo(ok);
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void highlyCompressibleBodyUnderTheGraceSizeIsAccepted() throws IOException {
        byte[] zeros = new byte[(int) HttpContentDecoder.RATIO_GRACE_BYTES];
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
        assertThat(streamThrough(ch, "gzip", gzip(zeros), 1 << 20)).isEqualTo(zeros);
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void corruptTruncatedOrTrailingDataIsRejected() throws IOException {
        byte[] good = gzip(text(1000));
        byte[] corruptCrc = good.clone();
        corruptCrc[good.length - 6] ^= 1;
        byte[] truncated = java.util.Arrays.copyOf(good, good.length - 4);
        byte[] badMagic = good.clone();
        badMagic[0] = 0;
        byte[] zlib = deflate(text(100), false);
        byte[] zlibTrailing = java.util.Arrays.copyOf(zlib, zlib.length + 1);
        byte[] garbage = {0x78, (byte) 0x9c, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 0, 0};
        List<Object[]> cases = new ArrayList<>();
        cases.add(new Object[] {"gzip", corruptCrc, "CRC-32"});
        cases.add(new Object[] {"gzip", truncated, "ended before the end"});
        cases.add(new Object[] {"gzip", badMagic, "magic"});
        cases.add(new Object[] {"deflate", zlibTrailing, "after the end"});
        cases.add(new Object[] {"deflate", garbage, "corrupt deflate data"});
        for (Object[] c : cases) {
            EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
            FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.copiedBuffer((byte[]) c[1]));
            res.headers().set(HttpHeaderNames.CONTENT_ENCODING, (String) c[0]);
            assertThatThrownBy(() -> ch.writeInbound(res)).isInstanceOf(DecompressionException.class)
                    .hasMessageContaining((String) c[2]);
            assertThat(res.refCnt()).isZero();
            assertThat(ch.finishAndReleaseAll()).isFalse();
        }
    }

    @Test
    void emptyBodyWithAnEncodingDecodesToEmpty() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor());
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        res.headers().set(HttpHeaderNames.CONTENT_ENCODING, "gzip");
        ch.writeInbound(res);
        FullHttpResponse out = ch.readInbound();
        assertThat(out.content().readableBytes()).isZero();
        assertThat(out.headers().get(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo("0");
        out.release();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void badLimitsFailFast() {
        assertThatThrownBy(() -> new HttpContentDecompressor(0, 10)).hasMessageContaining("0");
        assertThatThrownBy(() -> new HttpContentDecompressor(10, -1)).hasMessageContaining("-1");
    }
}
