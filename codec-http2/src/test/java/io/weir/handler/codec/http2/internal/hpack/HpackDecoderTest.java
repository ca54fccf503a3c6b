package io.weir.handler.codec.http2.internal.hpack;

import static io.weir.handler.codec.http2.internal.hpack.HpackTestSupport.STREAM_ID;
import static io.weir.handler.codec.http2.internal.hpack.HpackTestSupport.decode;
import static io.weir.handler.codec.http2.internal.hpack.HpackTestSupport.fields;
import static io.weir.handler.codec.http2.internal.hpack.HpackTestSupport.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.handler.codec.http2.Http2HeaderListSizeException;
import io.weir.handler.codec.http2.Http2Headers;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** HpackDecoder: the malformed-input table, valid edge cases, and the attacks its limits repel. */
class HpackDecoderTest {
    /** A valid request prefix: :method GET, :scheme http, :path /. */
    private static final String REQUEST = "828684";

    static Stream<Arguments> malformed() throws IOException {
        return rows("malformed.txt").stream().map(r -> Arguments.of(r[0], r[1], r[2], r[3], r[4], r[5]));
    }

    static Stream<Arguments> valid() throws IOException {
        return rows("valid.txt").stream().map(r -> Arguments.of(r[0], r[1], r[2], r[3]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedInputGetsTheExactReaction(String name, String side, String trailers, String hex, String code,
            String scope) throws Exception {
        for (boolean direct : new boolean[] {false, true}) {
            HpackDecoder decoder = new HpackDecoder(side.equals("server"));
            Http2Exception e = catchThrowableOfType(Http2Exception.class,
                    () -> decode(decoder, hex(hex), trailers.equals("yes"), direct));
            assertThat(e).as(name).isNotNull();
            assertThat(e.error()).as(name + ": " + e.getMessage()).isEqualTo(Http2Error.valueOf(code));
            assertThat(e.isConnectionError()).as(name + ": " + e.getMessage()).isEqualTo(scope.equals("connection"));
            if (!e.isConnectionError()) {
                assertThat(e.streamId()).isEqualTo(STREAM_ID);
                // A stream error leaves the decoder usable on the same connection.
                String next = side.equals("server") ? REQUEST : "88";
                assertThat(decode(decoder, hex(next), false, direct).size()).isEqualTo(next.length() / 2);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void unusualButValidBlocksAreAccepted(String name, String side, String trailers, String hex) throws Exception {
        HpackDecoder decoder = new HpackDecoder(side.equals("server"));
        Http2Headers headers = decode(decoder, hex(hex), trailers.equals("yes"), false);
        assertThat(headers.size()).as(name).isPositive();
    }

    @Test
    void decodedPseudoHeadersAreTheHeadersClassesOwnNames() throws Exception {
        // :method GET, :scheme http, :path / (indexed); :authority example.com (literal, name indexed 1).
        Http2Headers headers = decode(new HpackDecoder(true), REQUEST + "41" + string("example.com"));
        assertThat(headers.name(0)).isSameAs(Http2Headers.METHOD);
        assertThat(headers.name(1)).isSameAs(Http2Headers.SCHEME);
        assertThat(headers.name(2)).isSameAs(Http2Headers.PATH);
        assertThat(headers.name(3)).isSameAs(Http2Headers.AUTHORITY);
        assertThat(headers.authority()).hasToString("example.com");
        // A response's :status from the static table too.
        assertThat(decode(new HpackDecoder(false), "88").name(0)).isSameAs(Http2Headers.STATUS);
    }

    @Test
    void hpackBombIsRejected() {
        // One 4,000-byte field enters the table, then a 1,000-byte block references it 1,000 times: 4 MB of
        // headers. The decoder must stop at the connection-error limit (16 KiB) without building them.
        StringBuilder block = new StringBuilder(REQUEST).append(literalIncremental("x", "a".repeat(4000)));
        block.append("be".repeat(1000));
        HpackDecoder decoder = new HpackDecoder(true);
        Http2Exception e = catchThrowableOfType(Http2Exception.class, () -> decode(decoder, block.toString()));
        assertThat(e.error()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM);
        assertThat(e.isConnectionError()).isTrue();
        assertThat(e.getMessage()).contains("16384");
    }

    @Test
    void oversizedHeaderListIsAStreamErrorAndKeepsTheTableInSync() throws Exception {
        HpackDecoder decoder = new HpackDecoder(true);
        // 3 x 3,000 bytes > 8 KiB but < 16 KiB; every field is indexed, so the table must still take them.
        String block = REQUEST + literalIncremental("a", "1".repeat(3000)) + literalIncremental("b", "2".repeat(3000))
                + literalIncremental("c", "3".repeat(3000));
        Http2HeaderListSizeException e = catchThrowableOfType(Http2HeaderListSizeException.class,
                () -> decode(decoder, block));
        assertThat(e.isConnectionError()).isFalse();
        assertThat(e.error()).isEqualTo(Http2Error.PROTOCOL_ERROR);
        assertThat(e.limit()).isEqualTo(HpackDecoder.DEFAULT_MAX_HEADER_LIST_SIZE_BYTES);
        assertThat(e.seen()).isGreaterThan(e.limit());
        // The 4,096-byte table holds only the newest entry; index 62 is it.
        Http2Headers next = decode(decoder, REQUEST + "be");
        assertThat(next.get("c")).hasToString("3".repeat(3000));
    }

    @Test
    void headerListFarAboveLimitIsAConnectionError() {
        HpackDecoder decoder = new HpackDecoder(true);
        String block = REQUEST + literalWithoutIndexing("a", "1".repeat(17000));
        Http2Exception e = catchThrowableOfType(Http2Exception.class, () -> decode(decoder, block));
        assertThat(e.isConnectionError()).isTrue();
        assertThat(e.error()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM);
    }

    @Test
    void hugeHuffmanStringIsRejectedBeforeItIsBuilt() {
        HpackDecoder decoder = new HpackDecoder(true);
        decoder.maxHeaderListSize(100, 200);
        // 1,000 bytes of Huffman '0' (5 bits each) would decode to 1,600 bytes; the budget is under 200.
        String block = REQUEST + "00" + "0161" + "ffe906" + "00".repeat(1000);
        Http2Exception e = catchThrowableOfType(Http2Exception.class, () -> decode(decoder, block));
        assertThat(e.isConnectionError()).isTrue();
        assertThat(e.error()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM);
    }

    @Test
    void tooManyFieldsAreAStreamError() throws Exception {
        HpackDecoder decoder = new HpackDecoder(true);
        String block = REQUEST + "0f1101 61".replace(" ", "").repeat(HpackDecoder.DEFAULT_MAX_HEADER_COUNT);
        Http2HeaderListSizeException e = catchThrowableOfType(Http2HeaderListSizeException.class,
                () -> decode(decoder, block));
        assertThat(e.limit()).isEqualTo(HpackDecoder.DEFAULT_MAX_HEADER_COUNT);
        assertThat(e.isConnectionError()).isFalse();
        assertThat(decode(decoder, REQUEST).size()).isEqualTo(3);
    }

    @Test
    void farTooManyFieldsAreAConnectionError() {
        HpackDecoder decoder = new HpackDecoder(true);
        decoder.maxHeaderListSize(1 << 20);
        String block = REQUEST + "0f110161".repeat(2 * HpackDecoder.DEFAULT_MAX_HEADER_COUNT);
        Http2Exception e = catchThrowableOfType(Http2Exception.class, () -> decode(decoder, block));
        assertThat(e.isConnectionError()).isTrue();
        assertThat(e.error()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM);
    }

    @Test
    void tableSizeUpdateAboveSettingIsRejected() {
        HpackDecoder decoder = new HpackDecoder(true);
        // 001 11111 + 4066 = 4097, one above the 4,096 we advertise.
        assertCompressionError(decoder, "3fe21f" + REQUEST);
    }

    @Test
    void sizeUpdateInMiddleOfBlockIsRejected() {
        assertCompressionError(new HpackDecoder(true), "82" + "3f00" + "8684");
    }

    @Test
    void sizeUpdateIsRequiredAfterOurSettingShrinks() throws Exception {
        HpackDecoder decoder = new HpackDecoder(true);
        decode(decoder, REQUEST + literalIncremental("a", "b"));
        decoder.maxHeaderTableSize(100);
        assertCompressionError(decoder, REQUEST);

        HpackDecoder updated = new HpackDecoder(true);
        decode(updated, REQUEST + literalIncremental("a", "b"));
        updated.maxHeaderTableSize(100);
        // 001 11111 + 69 = 100; the entry (34 bytes) survives.
        Http2Headers headers = decode(updated, "3f45" + REQUEST + "be");
        assertThat(headers.get("a")).hasToString("b");
        assertThat(updated.table().capacity()).isEqualTo(100);
    }

    @Test
    void sizeUpdateMustSignalTheSmallestSettingSinceTheLastBlock() throws Exception {
        HpackDecoder decoder = new HpackDecoder(true);
        decoder.maxHeaderTableSize(0);
        decoder.maxHeaderTableSize(4096);
        assertCompressionError(decoder, "3fe11f" + REQUEST);

        HpackDecoder ok = new HpackDecoder(true);
        ok.maxHeaderTableSize(0);
        ok.maxHeaderTableSize(4096);
        assertThat(decode(ok, "20" + "3fe11f" + REQUEST).size()).isEqualTo(3);
        assertThat(ok.table().capacity()).isEqualTo(4096);
    }

    @Test
    void integerOverflowIsRejected() {
        assertCompressionError(new HpackDecoder(true), "ffffffffff0f");
        assertCompressionError(new HpackDecoder(true), REQUEST + "00" + "7fffffffff07");
    }

    @Test
    void huffmanEosIsRejected() {
        assertCompressionError(new HpackDecoder(true), REQUEST + "0f11" + "84ffffffff");
    }

    @Test
    void dynamicTableChurnStaysBounded() throws Exception {
        HpackDecoder decoder = new HpackDecoder(true);
        for (int i = 0; i < 20_000; i++) {
            Http2Headers h = decode(decoder, REQUEST + literalIncremental("k" + i, "v" + i) + "be");
            assertThat(h.getAll("k" + i)).hasSize(2);
        }
        assertThat(decoder.table().size()).isLessThanOrEqualTo(4096);
        assertThat(decoder.table().length()).isLessThanOrEqualTo(4096 / HpackDynamicTable.ENTRY_OVERHEAD_BYTES);
        assertThat(decoder.table().value(1)).hasToString("v19999");
    }

    @Test
    void streamErrorKeepsTheTableInSync() throws Exception {
        HpackDecoder decoder = new HpackDecoder(true);
        String bad = REQUEST + literalIncremental("Bad", "x") + literalIncremental("good", "y");
        Http2Exception e = catchThrowableOfType(Http2Exception.class, () -> decode(decoder, bad));
        assertThat(e.isConnectionError()).isFalse();
        Http2Headers next = decode(decoder, REQUEST + "be");
        assertThat(fields(next)).containsExactly(":method: GET", ":scheme: http", ":path: /", "good: y");
    }

    @Test
    void indexedFieldsAreStillCheckedForTheirPlace() throws Exception {
        // Entries remember that they validated; reusing them must still respect pseudo-header order and uniqueness.
        HpackDecoder decoder = new HpackDecoder(true);
        decode(decoder, REQUEST + "410161" + literalIncremental("x", "y"));
        Http2Exception afterRegular = catchThrowableOfType(Http2Exception.class,
                () -> decode(decoder, "8286" + "be" + "84"));
        assertThat(afterRegular.isConnectionError()).isFalse();
        assertThat(afterRegular.getMessage()).contains("after a regular field");
        Http2Exception duplicate = catchThrowableOfType(Http2Exception.class,
                () -> decode(decoder, REQUEST + "bf" + "bf"));
        assertThat(duplicate.getMessage()).contains("duplicate");
        Http2Exception inTrailers = catchThrowableOfType(Http2Exception.class,
                () -> decode(decoder, hex("bf"), true, false));
        assertThat(inTrailers.getMessage()).contains("trailer");
        assertThat(fields(decode(decoder, hex("be"), true, false))).containsExactly("x: y");
        assertThat(fields(decode(decoder, REQUEST + "bf" + "be"))).containsExactly(":method: GET", ":scheme: http",
                ":path: /", ":authority: a", "x: y");
    }

    @Test
    void forbiddenValueBytesAreFoundAtEveryPosition() throws Exception {
        // The value check reads eight bytes at a time; a forbidden byte must be caught in any lane and in the tail.
        HpackDecoder decoder = new HpackDecoder(true);
        for (int length = 1; length <= 24; length++) {
            for (int at = 0; at < length; at++) {
                for (char bad : new char[] {'\0', '\r', '\n'}) {
                    char[] value = "v".repeat(length).toCharArray();
                    value[at] = bad;
                    String block = REQUEST + literalWithoutIndexing("x", new String(value));
                    Http2Exception e = catchThrowableOfType(Http2Exception.class, () -> decode(decoder, block));
                    assertThat(e).as("length %d, 0x%x at %d", length, (int) bad, at).isNotNull();
                    assertThat(e.isConnectionError()).isFalse();
                }
            }
            assertThat(decode(decoder, REQUEST + literalWithoutIndexing("x", "\u00ff~".repeat(length))).size())
                    .isEqualTo(4);
        }
    }

    @Test
    void entryLargerThanTheTableEmptiesIt() throws Exception {
        HpackDecoder decoder = new HpackDecoder(true);
        decode(decoder, REQUEST + literalIncremental("a", "b"));
        decode(decoder, REQUEST + literalIncremental("big", "z".repeat(5000)));
        assertThat(decoder.table().length()).isZero();
        assertThat(decoder.table().size()).isZero();
    }

    @Test
    void limitsHaveSetters() {
        HpackDecoder decoder = new HpackDecoder(false);
        decoder.maxHeaderListSize(1000);
        decoder.maxHeaderCount(10, 20);
        decoder.maxHeaderTableSize(0);
        assertThat(decoder.maxHeaderListSize()).isEqualTo(1000);
        assertThat(decoder.maxHeaderCount()).isEqualTo(10);
        assertThat(decoder.maxHeaderTableSize()).isZero();
        assertThatThrownBy(() -> decoder.maxHeaderListSize(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> decoder.maxHeaderCount(5, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> decoder.maxHeaderTableSize(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    private static void assertCompressionError(HpackDecoder decoder, String hex) {
        Http2Exception e = catchThrowableOfType(Http2Exception.class, () -> decode(decoder, hex));
        assertThat(e).isNotNull();
        assertThat(e.error()).as(e.getMessage()).isEqualTo(Http2Error.COMPRESSION_ERROR);
        assertThat(e.isConnectionError()).isTrue();
    }

    static String literalIncremental(String name, String value) {
        return "40" + string(name) + string(value);
    }

    static String literalWithoutIndexing(String name, String value) {
        return "00" + string(name) + string(value);
    }

    /** A raw string literal: 7-bit prefixed length, then the bytes (RFC 7541 §5.2). */
    static String string(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.ISO_8859_1);
        StringBuilder sb = new StringBuilder();
        int length = bytes.length;
        if (length < 127) {
            sb.append(String.format("%02x", length));
        } else {
            sb.append("7f");
            int rest = length - 127;
            while (rest >= 128) {
                sb.append(String.format("%02x", (rest & 0x7f) | 0x80));
                rest >>>= 7;
            }
            sb.append(String.format("%02x", rest));
        }
        return sb.append(HexFormat.of().formatHex(bytes)).toString();
    }

    private static List<String[]> rows(String file) throws IOException {
        List<String[]> rows = new ArrayList<>();
        try (InputStream in = HpackDecoderTest.class.getResourceAsStream(file)) {
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    String[] cells = line.split("\\|");
                    for (int i = 0; i < cells.length; i++) {
                        cells[i] = cells[i].trim();
                    }
                    rows.add(cells);
                }
            }
        }
        return rows;
    }
}
