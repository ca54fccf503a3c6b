package io.weir.handler.codec.compression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.buffer.UnpooledByteBufAllocator;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class ContentEncoderCacheTest {
    private static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;
    private static final byte[] BODY = "weir weir weir weir weir weir weir weir".repeat(50).getBytes(StandardCharsets.US_ASCII);

    @Test
    void offersOnlyTheGivenCodings() {
        ContentEncoderCache cache = new ContentEncoderCache(CompressionOptions.gzip(1));
        assertThat(cache.offers("gzip")).isTrue();
        assertThat(cache.offers("deflate")).isFalse();
        assertThat(cache.offers("compress")).isFalse();
        assertThat(cache.acquire("deflate", -1)).isNull();
        cache.end();
    }

    @Test
    void codingGivenTwiceIsRejected() {
        assertThatThrownBy(() -> new ContentEncoderCache(CompressionOptions.gzip(1), CompressionOptions.gzip(9)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gzip");
    }

    @Test
    void gzipStateIsReusedFromBodyToBodyAndEachBodyDecodes() throws IOException {
        ContentEncoderCache cache = new ContentEncoderCache(CompressionOptions.gzip(6));
        try {
            ContentEncoder first = cache.acquire("gzip", BODY.length);
            assertThat(gunzip(encodeWhole(first))).isEqualTo(BODY);
            ContentEncoder second = cache.acquire("gzip", BODY.length);
            assertThat(second).as("the closed state is handed out again").isSameAs(first);
            assertThat(gunzip(encodeWhole(second))).isEqualTo(BODY);
        } finally {
            cache.end();
        }
    }

    @Test
    void anEncoderStillInUseIsNotHandedOutTwice() throws IOException {
        ContentEncoderCache cache = new ContentEncoderCache(CompressionOptions.gzip(6));
        try {
            ContentEncoder open = cache.acquire("gzip", -1);
            ContentEncoder other = cache.acquire("gzip", -1);
            assertThat(other).isNotSameAs(open);
            assertThat(gunzip(encodeWhole(other))).isEqualTo(BODY);
            assertThat(gunzip(encodeWhole(open))).isEqualTo(BODY);
        } finally {
            cache.end();
        }
    }

    @Test
    void decoderLookupIsCaseInsensitiveAndUnknownCodingsHaveNone() {
        for (String coding : List.of("gzip", "GZip", "x-gzip", "deflate", "X-Deflate")) {
            ContentDecoder d = ContentDecoder.forCoding(coding);
            assertThat(d).as(coding).isNotNull();
            d.close();
        }
        assertThat(ContentDecoder.forCoding("compress")).isNull();
        assertThat(ContentDecoder.forCoding("identity")).isNull();
    }

    @Test
    void decoderFromLookupRoundTripsTheEncoderOutput() throws IOException {
        ContentEncoderCache cache = new ContentEncoderCache(CompressionOptions.deflate(6));
        ContentDecoder decoder = ContentDecoder.forCoding("deflate");
        try {
            byte[] wire = encodeWhole(cache.acquire("deflate", BODY.length));
            List<ByteBuf> out = new ArrayList<>();
            ByteBuf in = Unpooled.wrappedBuffer(wire);
            decoder.decode(in, ALLOC, out::add);
            in.release();
            decoder.finish();
            ByteBuf all = Unpooled.wrappedBuffer(out.toArray(new ByteBuf[0]));
            assertThat(ByteBufUtil.getBytes(all)).isEqualTo(BODY);
            all.release();
        } finally {
            decoder.close();
            cache.end();
        }
    }

    private static byte[] encodeWhole(ContentEncoder encoder) {
        ByteBuf in = Unpooled.wrappedBuffer(BODY);
        ByteBuf body = encoder.encode(in, ALLOC);
        in.release();
        ByteBuf tail = encoder.finish(ALLOC);
        encoder.close();
        byte[] wire = new byte[body.readableBytes() + tail.readableBytes()];
        body.readBytes(wire, 0, body.readableBytes());
        tail.readBytes(wire, wire.length - tail.readableBytes(), tail.readableBytes());
        body.release();
        tail.release();
        return wire;
    }

    private static byte[] gunzip(byte[] wire) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(wire))) {
            return in.readAllBytes();
        }
    }
}
