package io.weir.handler.codec.http2.internal.hpack;

import static io.weir.handler.codec.http2.internal.hpack.HpackTestSupport.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.weir.buffer.ByteBufUtil;
import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.util.AsciiString;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Huffman coding (RFC 7541 §5.2, Appendix B): the RFC's examples, round trips, and what must be rejected. */
class HpackHuffmanTest {

    @ParameterizedTest
    @CsvSource({
        // Strings and their codes from RFC 7541 Appendix C.4 and C.6.
        "www.example.com, f1e3c2e5f23a6ba0ab90f4ff",
        "no-cache, a8eb10649cbf",
        "custom-key, 25a849e95ba97d7f",
        "custom-value, 25a849e95bb8e8b4bf",
        "302, 6402",
        "private, aec3771a4b",
        "https://www.example.com, 9d29ad171863c78f0b97c8e9ae82ae43d3",
    })
    void encodesAndDecodesTheRfcExamples(String text, String code) throws Exception {
        assertThat(encode(text)).isEqualTo(code);
        assertThat(HpackHuffmanEncoder.encodedLength(text)).isEqualTo(code.length() / 2);
        assertThat(HpackHuffmanEncoder.encodedLength(new AsciiString(text))).isEqualTo(code.length() / 2);
        assertThat(decode(hex(code))).isEqualTo(text);
    }

    @Test
    void everyByteRoundTrips() throws Exception {
        byte[] all = new byte[256];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) i;
        }
        AsciiString s = new AsciiString(all);
        assertThat(decode(hex(encode(s)))).isEqualTo(s.toString());
        assertThat(decode(hex(encode(s.toString())))).isEqualTo(s.toString());
    }

    @Test
    void randomStringsRoundTrip() throws Exception {
        SplittableRandom random = new SplittableRandom(7541);
        for (int n = 0; n < 2000; n++) {
            byte[] bytes = new byte[random.nextInt(64)];
            for (int i = 0; i < bytes.length; i++) {
                // Mostly header-like text, sometimes any byte.
                bytes[i] = (byte) (random.nextInt(4) == 0 ? random.nextInt(256) : 0x20 + random.nextInt(0x5f));
            }
            AsciiString s = new AsciiString(bytes);
            byte[] code = hex(encode(s));
            assertThat(code.length).isEqualTo(HpackHuffmanEncoder.encodedLength(s));
            assertThat(decode(code)).isEqualTo(s.toString());
        }
    }

    @Test
    void huffmanEosIsRejected() {
        // 30 one bits (EOS) and two bits of padding.
        assertRejected("ffffffff");
        // 'a' (00011), then EOS.
        assertRejected("1fffffffff");
    }

    @Test
    void paddingLongerThanSevenBitsIsRejected() {
        // 'a' (00011) + 3 padding bits is fine; an extra byte of ones makes 11 bits of padding.
        assertThat(catchThrowableOfType(Http2Exception.class, () -> decode(hex("1fff")))).isNotNull();
        assertRejected("ff");
    }

    @Test
    void paddingNotAllOnesIsRejected() {
        // 'a' (00011) padded with 000 and with 110.
        assertRejected("18");
        assertRejected("1e");
    }

    @Test
    void encodingStopsWhenTheCodeIsNotShorter() {
        byte[] dst = new byte[64];
        // "aaaa" takes 20 bits: 3 bytes fit in 3, not in 2.
        assertThat(HpackHuffmanEncoder.encode(dst, 5, "aaaa", 3)).isEqualTo(8);
        assertThat(HpackHuffmanEncoder.encode(dst, 5, "aaaa", 2)).isEqualTo(-1);
        // 40 bytes of 0xff code to 26 bits each: the loop gives up long before, writing within the limit.
        byte[] guard = new byte[16];
        assertThat(HpackHuffmanEncoder.encode(guard, 0, "\u00ff".repeat(40), 12)).isEqualTo(-1);
        for (int length = 1; length < 40; length++) {
            String s = "0123456789abcdefghij~<>".repeat(3).substring(0, length);
            int need = HpackHuffmanEncoder.encodedLength(s);
            assertThat(HpackHuffmanEncoder.encode(new byte[need], 0, s, need)).isEqualTo(need);
            assertThat(HpackHuffmanEncoder.encode(new byte[need], 0, s, need - 1)).isEqualTo(-1);
        }
    }

    @Test
    void emptyStringDecodesToNothing() throws Exception {
        assertThat(decode(new byte[0])).isEmpty();
    }

    @Test
    void outputBoundIsHonoured() throws Exception {
        byte[] code = hex(encode("0000000000"));
        byte[] dst = new byte[16];
        assertThat(HpackHuffmanDecoder.decode(code, 0, code.length, dst, 9)).isEqualTo(HpackHuffmanDecoder.TOO_LONG);
        assertThat(HpackHuffmanDecoder.decode(code, 0, code.length, dst, 10)).isEqualTo(10);
    }

    private static void assertRejected(String hex) {
        Http2Exception e = catchThrowableOfType(Http2Exception.class, () -> decode(hex(hex)));
        assertThat(e).isNotNull();
        assertThat(e.error()).isEqualTo(Http2Error.COMPRESSION_ERROR);
        assertThat(e.isConnectionError()).isTrue();
    }

    private static String encode(CharSequence s) {
        byte[] code = new byte[HpackHuffmanEncoder.encodedLength(s) + 2];
        code[0] = 0x55;
        int end = HpackHuffmanEncoder.encode(code, 1, s, code.length - 2);
        assertThat(end).isEqualTo(code.length - 1);
        return ByteBufUtil.hexDump(code, 1, end - 1);
    }

    private static String decode(byte[] code) throws Http2Exception {
        byte[] dst = new byte[code.length * 8 / 5 + 1];
        int n = HpackHuffmanDecoder.decode(code, 0, code.length, dst, dst.length);
        return new AsciiString(dst, 0, n, true).toString();
    }
}
