package io.weir.handler.codec.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.compression.ContentDecoder;
import io.weir.handler.codec.compression.DecompressionException;
import io.weir.util.ReferenceCountUtil;

/**
 * Fuzz target for {@link HttpContentDecompressor} over all four codings. Run as a plain test it replays the
 * corpus under {@code src/test/resources/io/weir/handler/codec/http/HttpContentDecompressorFuzzTestInputs/decode/};
 * with {@code JAZZER_FUZZ=1} Jazzer mutates it. The first byte picks the coding (low two bits: gzip, deflate, br,
 * zstd) and the chunk size the body is split into (the other six). Invariants: the only exception is a
 * {@link DecompressionException}; no more than the limit plus one piece is passed on; every piece is at most
 * {@link ContentDecoder#MAX_PIECE_BYTES}; nothing leaks (the leak detector fails the class).
 */
class HttpContentDecompressorFuzzTest {
    private static final String[] CODINGS = {"gzip", "deflate", "br", "zstd"};
    private static final int MAX_DECOMPRESSED_BYTES = 256 * 1024;

    @FuzzTest(maxDuration = "30s")
    void decode(byte[] data) {
        if (data.length == 0) {
            return;
        }
        String coding = CODINGS[data[0] & 0x03];
        int step = ((data[0] & 0xFF) >>> 2) * 37 + 1;
        EmbeddedChannel ch = new EmbeddedChannel(new HttpContentDecompressor(MAX_DECOMPRESSED_BYTES, 100));
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().set(HttpHeaderNames.CONTENT_ENCODING, coding);
        ch.writeInbound(head);
        ReferenceCountUtil.release(ch.readInbound());
        long passedOn = 0;
        for (int i = 1; i < data.length || i == 1; i += step) {
            int n = Math.max(0, Math.min(step, data.length - i));
            boolean last = i + n >= data.length;
            HttpContent piece = last ? new DefaultLastHttpContent(Unpooled.copiedBuffer(data, i, n))
                    : new DefaultHttpContent(Unpooled.copiedBuffer(data, i, n));
            try {
                ch.writeInbound(piece);
            } catch (DecompressionException expected) {
                assertThat(piece.refCnt()).isZero();
            }
            for (Object o; (o = ch.readInbound()) != null; ) {
                int bytes = ((HttpContent) o).content().readableBytes();
                assertThat(bytes).isLessThanOrEqualTo(ContentDecoder.MAX_PIECE_BYTES);
                passedOn += bytes;
                ReferenceCountUtil.release(o);
            }
            if (last) {
                break;
            }
        }
        assertThat(passedOn).isLessThanOrEqualTo(MAX_DECOMPRESSED_BYTES);
        ch.finishAndReleaseAll();
    }
}
