package io.weir.handler.codec.http2.internal.hpack;

import static io.weir.handler.codec.http2.internal.hpack.HpackTestSupport.decode;
import static io.weir.handler.codec.http2.internal.hpack.HpackTestSupport.encode;
import static io.weir.handler.codec.http2.internal.hpack.HpackTestSupport.fields;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBufUtil;
import io.weir.handler.codec.http2.Http2HeaderSensitivity;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.util.AsciiString;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** HpackEncoder: representation choices, sensitivity, size updates, and round trips through the decoder. */
class HpackEncoderTest {

    private static Http2Headers request() {
        return new Http2Headers().method("GET").scheme("https").path("/").authority("example.com");
    }

    @Test
    void staticFullMatchIsOneByte() {
        Http2Headers h = new Http2Headers().method("GET").scheme("http").path("/");
        assertThat(ByteBufUtil.hexDump(encode(new HpackEncoder(), h))).isEqualTo("828684");
    }

    @Test
    void repeatedFieldIsIndexedFromTheDynamicTable() throws Exception {
        HpackEncoder encoder = new HpackEncoder();
        Http2Headers h = new Http2Headers().status("200").add("x-trace", "abc");
        encode(encoder, h);
        // :status 200 is static index 8; x-trace: abc is now dynamic index 62.
        assertThat(ByteBufUtil.hexDump(encode(encoder, h))).isEqualTo("88be");
    }

    @Test
    void defaultSensitiveFieldsAreNeverIndexed() throws Exception {
        HpackEncoder encoder = new HpackEncoder().huffman(false);
        Http2Headers h = request().add("authorization", "Bearer abc").add("cookie", "id=1")
                .add("cookie", "session=" + "x".repeat(40));
        byte[] block = encode(encoder, h);
        String hex = ByteBufUtil.hexDump(block);
        // authorization is static name 23: 0001 1111 + 8 -> "1f08"; cookie (32) short value: "1f11".
        assertThat(hex).contains("1f08" + "0a" + ByteBufUtil.hexDump("Bearer abc".getBytes()));
        assertThat(hex).contains("1f11" + "04" + ByteBufUtil.hexDump("id=1".getBytes()));
        // Only the authority and the long cookie entered the table.
        assertThat(HpackTestSupport.entries(encoder.table()))
                .containsExactly("cookie: session=" + "x".repeat(40), ":authority: example.com");
        assertThat(fields(decode(new HpackDecoder(true), block, false, false))).containsExactlyElementsOf(fields(h));
    }

    @Test
    void customSensitivityIsHonoured() {
        HpackEncoder encoder = new HpackEncoder().huffman(false).sensitivity(Http2HeaderSensitivity.NONE);
        encode(encoder, new Http2Headers().add("authorization", "x"));
        assertThat(encoder.table().length()).isEqualTo(1);
        HpackEncoder strict = new HpackEncoder().sensitivity((n, v) -> true);
        encode(strict, request());
        assertThat(strict.table().length()).isZero();
    }

    @Test
    void largeEntriesAreNotIndexed() {
        HpackEncoder encoder = new HpackEncoder().huffman(false);
        String big = "v".repeat(HpackEncoder.DEFAULT_MAX_INDEXED_ENTRY_SIZE_BYTES);
        byte[] block = encode(encoder, new Http2Headers().add("x-big", big));
        assertThat(block[0]).isEqualTo((byte) 0x00);
        assertThat(encoder.table().length()).isZero();
        encoder.maxIndexedEntrySize(2000);
        encode(encoder, new Http2Headers().add("x-big", big));
        assertThat(encoder.table().length()).isEqualTo(1);
        assertThatThrownBy(() -> encoder.maxIndexedEntrySize(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void huffmanIsUsedOnlyWhereShorter() {
        HpackEncoder encoder = new HpackEncoder();
        // "aaaa" is 20 bits in Huffman (3 bytes) < 4; "\u00ff" is 26 bits (4 bytes) > 1.
        byte[] block = encode(encoder, new Http2Headers(4, false).add("x", "aaaa").add("y", "\u00ff"));
        String hex = ByteBufUtil.hexDump(block);
        assertThat(hex).contains("83" + ByteBufUtil.hexDump(encodeHuffman("aaaa")));
        assertThat(hex).endsWith("01ff");
        HpackEncoder off = new HpackEncoder().huffman(false);
        assertThat(ByteBufUtil.hexDump(encode(off, new Http2Headers().add("x", "aaaa")))).isEqualTo("400178" + "0461616161");
    }

    @Test
    void longHuffmanStringsGetTheirShorterLengthPrefix() throws Exception {
        // 200 raw bytes need a two-byte length; 200 zeros (5 bits each) code to 125 bytes, whose length fits in one.
        Http2Headers h = new Http2Headers().add("x-digits", "0".repeat(200));
        byte[] block = encode(new HpackEncoder(), h);
        assertThat(fields(decode(new HpackDecoder(true), block, true, false))).containsExactlyElementsOf(fields(h));
        // 0x40, the Huffman-coded name (1 + 6 bytes), then the value (1 + 125 bytes).
        assertThat(block.length).isEqualTo(1 + 1 + 6 + 1 + 125);
    }

    @Test
    void sizeUpdateOpensTheNextBlockAfterThePeerSettingChanges() throws Exception {
        HpackEncoder encoder = new HpackEncoder();
        HpackDecoder decoder = new HpackDecoder(true);
        encode(encoder, request());
        encoder.remoteMaxHeaderTableSize(0);
        decoder.maxHeaderTableSize(0);
        byte[] block = encode(encoder, request());
        assertThat(block[0]).isEqualTo((byte) 0x20);
        assertThat(encoder.table().length()).isZero();
        assertThat(fields(decode(decoder, block, false, false))).containsExactlyElementsOf(fields(request()));
        // No further update once it has been sent.
        assertThat(encode(encoder, request())[0]).isEqualTo((byte) 0x82);
    }

    @Test
    void smallestSizeIsSignalledWhenTheSettingShrankAndGrewBetweenBlocks() throws Exception {
        HpackEncoder encoder = new HpackEncoder();
        HpackDecoder decoder = new HpackDecoder(true);
        decode(decoder, encode(encoder, request()), false, false);
        encoder.remoteMaxHeaderTableSize(100);
        encoder.remoteMaxHeaderTableSize(4096);
        decoder.maxHeaderTableSize(100);
        decoder.maxHeaderTableSize(4096);
        byte[] block = encode(encoder, request());
        // 001 11111 + 69 = 100, then 001 11111 + 4065 = 4096.
        assertThat(ByteBufUtil.hexDump(block)).startsWith("3f45" + "3fe11f");
        assertThat(fields(decode(decoder, block, false, false))).containsExactlyElementsOf(fields(request()));
    }

    @Test
    void ourCapLimitsTheTableWhateverThePeerAllows() {
        HpackEncoder encoder = new HpackEncoder().maxHeaderTableSize(64);
        encoder.remoteMaxHeaderTableSize(65536);
        byte[] block = encode(encoder, request());
        assertThat(ByteBufUtil.hexDump(block)).startsWith("3f21");
        assertThat(encoder.table().capacity()).isEqualTo(64);
        assertThatThrownBy(() -> encoder.remoteMaxHeaderTableSize(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> encoder.maxHeaderTableSize(1L << 32)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void dynamicTableChurnRoundTrips() throws Exception {
        // A small table, many distinct and repeated fields: every block must decode to what was encoded, which
        // only holds if both tables evict identically.
        SplittableRandom random = new SplittableRandom(42);
        for (long tableSize : new long[] {0, 64, 256, 4096}) {
            HpackEncoder encoder = new HpackEncoder().huffman(random.nextBoolean());
            encoder.remoteMaxHeaderTableSize(tableSize);
            HpackDecoder decoder = new HpackDecoder(true);
            decoder.maxHeaderTableSize(tableSize);
            for (int block = 0; block < 500; block++) {
                Http2Headers h = request();
                int n = random.nextInt(12);
                for (int i = 0; i < n; i++) {
                    h.add("x-" + random.nextInt(20), "v".repeat(random.nextInt(40)) + random.nextInt(30));
                }
                assertThat(fields(decode(decoder, encode(encoder, h), false, block % 2 == 0)))
                        .containsExactlyElementsOf(fields(h));
                assertThat(encoder.table().size()).isLessThanOrEqualTo(tableSize);
            }
        }
    }

    @Test
    void encodesAlikeIntoHeapDirectAndPartlyFilledBuffers() {
        Http2Headers h = request().add("x-long", "y".repeat(3000)).add("cookie", "a=b");
        byte[] expected = encode(new HpackEncoder(), h);
        for (io.weir.buffer.ByteBuf out : new io.weir.buffer.ByteBuf[] {io.weir.buffer.Unpooled.buffer(1),
                io.weir.buffer.Unpooled.directBuffer(1), io.weir.buffer.Unpooled.buffer(64).writeBytes(new byte[7]),
                io.weir.buffer.Unpooled.directBuffer(64).writeBytes(new byte[7])}) {
            try {
                int before = out.writerIndex();
                HpackEncoder encoder = new HpackEncoder();
                encoder.encode(h, out);
                assertThat(ByteBufUtil.getBytes(out, before, out.writerIndex() - before)).isEqualTo(expected);
                // A second block into the same buffer: all indexed now except the unindexed long field.
                int second = out.writerIndex();
                encoder.encode(h, out);
                assertThat(out.writerIndex() - second).isLessThan(expected.length);
            } finally {
                out.release();
            }
        }
    }

    @Test
    void stringAndAsciiStringFieldsEncodeAlike() {
        Http2Headers strings = new Http2Headers().add("x-name", "some value");
        Http2Headers ascii = new Http2Headers().add(new AsciiString("x-name"), new AsciiString("some value"));
        assertThat(encode(new HpackEncoder(), strings)).isEqualTo(encode(new HpackEncoder(), ascii));
    }

    private static byte[] encodeHuffman(String s) {
        byte[] code = new byte[HpackHuffmanEncoder.encodedLength(s)];
        HpackHuffmanEncoder.encode(code, 0, s, code.length);
        return code;
    }
}
