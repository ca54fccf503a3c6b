package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code isText}: the strict UTF-8 validator, the ASCII check and the decoder fallback. */
class ByteBufUtilIsTextTest {
    private final List<ByteBuf> buffers = new ArrayList<>();

    private ByteBuf heap(byte[] content) {
        ByteBuf buf = Unpooled.wrappedBuffer(content);
        buffers.add(buf);
        return buf;
    }

    private ByteBuf direct(byte[] content) {
        ByteBuf buf = Unpooled.directBuffer(content.length).writeBytes(content);
        buffers.add(buf);
        return buf;
    }

    @AfterEach
    void releaseAll() {
        for (ByteBuf buf : buffers) {
            if (buf.refCnt() > 0) {
                buf.release(buf.refCnt());
            }
        }
    }

    private static byte[] hex(String spaced) {
        return ByteBufUtil.decodeHexDump(spaced.replace(" ", ""));
    }

    /** Valid and invalid sequences, many from Markus Kuhn's UTF-8 decoder stress test. */
    @ParameterizedTest(name = "{0} -> {1} ({2})")
    @CsvSource(delimiter = '|', textBlock = """
            ''                               | true  | nothing
            41                               | true  | ASCII
            00                               | true  | NUL is a character
            c2 80                            | true  | U+0080, first 2-byte
            df bf                            | true  | U+07FF, last 2-byte
            e0 a0 80                         | true  | U+0800, first 3-byte
            ed 9f bf                         | true  | U+D7FF, just below the surrogates
            ee 80 80                         | true  | U+E000, just above the surrogates
            ef bf bd                         | true  | U+FFFD
            ef bf bf                         | true  | U+FFFF, last 3-byte
            f0 90 80 80                      | true  | U+10000, first 4-byte
            f4 8f bf bf                      | true  | U+10FFFF, the last code point
            ce ba e1 bd b9 cf 83 ce bc ce b5 | true  | kosme in Greek
            41 41 41 41 41 41 41 f0 9d 84 9e | true  | a 4-byte char across a word boundary
            80                               | false | a lone continuation byte
            bf                               | false | a lone last continuation byte
            41 80 bf                         | false | continuation bytes after ASCII
            c0 80                            | false | overlong NUL
            c1 bf                            | false | overlong U+007F
            e0 80 af                         | false | overlong slash in 3 bytes
            e0 9f bf                         | false | overlong U+07FF
            f0 80 80 af                      | false | overlong slash in 4 bytes
            f0 8f bf bf                      | false | overlong U+FFFF
            f8 88 80 80 80                   | false | a 5-byte form
            fc 84 80 80 80 80                | false | a 6-byte form
            ed a0 80                         | false | U+D800 encoded
            ed bf bf                         | false | U+DFFF encoded
            ed a0 80 ed b0 80                | false | a surrogate pair encoded as two 3-byte forms
            f4 90 80 80                      | false | U+110000, beyond Unicode
            f5 80 80 80                      | false | lead byte F5
            fe                               | false | FE never appears
            ff                               | false | FF never appears
            c2                               | false | 2-byte cut after its lead
            e0 a0                            | false | 3-byte cut after two bytes
            f0 90 80                         | false | 4-byte cut after three bytes
            41 41 41 41 41 41 41 c3          | false | cut at the end of a word
            c2 41                            | false | a 2-byte lead followed by ASCII
            e1 80 41                         | false | a 3-byte form missing its last byte
            f1 80 80 41                      | false | a 4-byte form missing its last byte
            e1 c0 80                         | false | a lead byte where a continuation belongs
            """)
    void utf8ValidationFollowsRfc3629(String bytes, boolean valid, String what) {
        byte[] content = hex(bytes);
        assertThat(ByteBufUtil.isText(heap(content), StandardCharsets.UTF_8)).as(what).isEqualTo(valid);
        assertThat(ByteBufUtil.isText(direct(content), StandardCharsets.UTF_8)).as(what).isEqualTo(valid);
        // The same bytes after an ASCII run that the word-at-a-time skip passes over.
        byte[] afterAscii = new byte[19 + content.length];
        java.util.Arrays.fill(afterAscii, 0, 19, (byte) 'x');
        System.arraycopy(content, 0, afterAscii, 19, content.length);
        assertThat(ByteBufUtil.isText(direct(afterAscii), StandardCharsets.UTF_8)).as(what).isEqualTo(valid);
    }

    @Test
    void utf8ValidationLooksOnlyAtTheGivenRange() {
        ByteBuf buf = heap(hex("ff 41 c3 a9 42 ff"));
        assertThat(ByteBufUtil.isText(buf, 1, 4, StandardCharsets.UTF_8)).isTrue();
        assertThat(ByteBufUtil.isText(buf, 1, 2, StandardCharsets.UTF_8)).as("cuts the 2-byte form").isFalse();
        assertThat(ByteBufUtil.isText(buf, StandardCharsets.UTF_8)).isFalse();
        buf.readerIndex(1).writerIndex(5);
        assertThat(ByteBufUtil.isText(buf, StandardCharsets.UTF_8)).isTrue();
        assertThatThrownBy(() -> ByteBufUtil.isText(buf, 4, 3, StandardCharsets.UTF_8))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void utf8ValidationAgreesWithTheJdkDecoderOnRandomBytes() {
        Random random = new Random(0x0DF8L);
        byte[][] pieces = {hex("41"), hex("c3 a9"), hex("e2 82 ac"), hex("f0 9f 98 80"), hex("80"), hex("c0"),
                hex("ed a0"), hex("f4 90"), hex("e0 9f"), hex("ff"), hex("0a"), hex("f0")};
        for (int round = 0; round < 3000; round++) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            int count = random.nextInt(12);
            for (int i = 0; i < count; i++) {
                // Mostly valid pieces, so that a good share of inputs is valid as a whole.
                int pick = random.nextInt(10) < 8 ? random.nextInt(4) : random.nextInt(pieces.length);
                out.writeBytes(pieces[pick]);
            }
            byte[] content = out.toByteArray();
            boolean expected = jdkAccepts(content);
            assertThat(ByteBufUtil.isText(direct(content), StandardCharsets.UTF_8))
                    .as("%s", ByteBufUtil.hexDump(content)).isEqualTo(expected);
            assertThat(ByteBufUtil.isText(heap(content), StandardCharsets.UTF_8)).isEqualTo(expected);
            buffers.forEach(ByteBuf::release);
            buffers.clear();
        }
    }

    private static boolean jdkAccepts(byte[] content) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    @Test
    void asciiIsBytesBelow0x80AtEveryPosition() {
        byte[] content = new byte[37];
        java.util.Arrays.fill(content, (byte) 0x7f);
        assertThat(ByteBufUtil.isText(direct(content), StandardCharsets.US_ASCII)).isTrue();
        for (int at = 0; at < content.length; at++) {
            content[at] = (byte) 0x80;
            assertThat(ByteBufUtil.isText(direct(content), StandardCharsets.US_ASCII)).as("0x80 at %d", at).isFalse();
            assertThat(ByteBufUtil.isText(heap(content.clone()), StandardCharsets.US_ASCII)).isFalse();
            content[at] = 0x7f;
        }
    }

    @Test
    void otherCharsetsAreCheckedByDecoding() {
        byte[] everyByte = new byte[256];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = (byte) i;
        }
        assertThat(ByteBufUtil.isText(heap(everyByte), StandardCharsets.ISO_8859_1)).isTrue();
        assertThat(ByteBufUtil.isText(direct(hex("00 41 00 e9")), StandardCharsets.UTF_16BE)).isTrue();
        assertThat(ByteBufUtil.isText(direct(hex("00 41 00")), StandardCharsets.UTF_16BE)).as("odd length").isFalse();
        assertThat(ByteBufUtil.isText(direct(hex("d8 00 00 41")), StandardCharsets.UTF_16BE))
                .as("unpaired surrogate").isFalse();
    }
}
