package io.weir.handler.codec.http.websocketx;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.handler.codec.http.websocketx.internal.Utf8Validator;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Utf8ValidatorTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "hello", "κόσμε", "\u0000", "\u007f\u0080\u07ff\u0800\uffff", "\ud800\udc00\udbff\udfff",
            "Hello-µ@ßöäüàá-UTF-8!!", "0123456789abcdefé0123456789abcdef"})
    void acceptsValidText(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        assertThat(valid(b)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"80", "bf", "c0 80", "c1 bf", "e0 80 80", "e0 9f bf", "ed a0 80", "ed bf bf",
            "f0 80 80 80", "f0 8f bf bf", "f4 90 80 80", "f5 80 80 80", "fe", "ff", "c2", "e1 80", "f1 80 80",
            "ce ba e1 bd b9 cf 83 ce bc ce b5 ed a0 80 65 64 69 74 65 64", "61 62 63 64 65 66 67 68 ff"})
    void rejectsInvalidSequences(String hex) {
        assertThat(valid(WireFrames.hex(hex))).isFalse();
    }

    @Test
    void failsAtTheFirstInvalidByteBeforeTheRestArrives() {
        Utf8Validator v = new Utf8Validator();
        assertThat(v.update(WireFrames.hex("ce ba e1 bd"), 0, 4)).isTrue();
        assertThat(v.isComplete()).isFalse();
        // A surrogate lead after a complete character: invalid at its second byte, whatever follows.
        assertThat(v.update(WireFrames.hex("b9 ed a0"), 0, 3)).isFalse();
        assertThat(v.isRejected()).isTrue();
    }

    @Test
    void everySplitOfValidTextAgreesWithTheWhole() {
        byte[] b = "aé€😀 ASCII run of more than eight bytes ✓".getBytes(StandardCharsets.UTF_8);
        for (int split = 0; split <= b.length; split++) {
            Utf8Validator v = new Utf8Validator();
            assertThat(v.update(b, 0, split)).isTrue();
            assertThat(v.update(b, split, b.length - split)).isTrue();
            assertThat(v.isComplete()).isTrue();
        }
    }

    @Test
    void agreesWithTheJdkDecoderOnRandomBytes() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        for (int i = 0; i < 20_000; i++) {
            byte[] b = new byte[r.nextInt(1, 24)];
            for (int j = 0; j < b.length; j++) {
                // Mostly ASCII with some high bytes, so that valid multi-byte sequences occur too.
                b[j] = (byte) (r.nextInt(4) == 0 ? r.nextInt(0x80, 0x100) : r.nextInt(0x80));
            }
            boolean jdk;
            try {
                StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(b));
                jdk = true;
            } catch (java.nio.charset.CharacterCodingException e) {
                jdk = false;
            }
            assertThat(valid(b)).as(java.util.HexFormat.of().formatHex(b)).isEqualTo(jdk);
        }
    }

    private static boolean valid(byte[] b) {
        ByteBuf heap = Unpooled.wrappedBuffer(b);
        ByteBuf direct = Unpooled.directBuffer(b.length).writeBytes(b);
        try {
            boolean h = Utf8Validator.isValid(heap, 0, b.length);
            assertThat(Utf8Validator.isValid(direct, 0, b.length)).isEqualTo(h);
            return h;
        } finally {
            heap.release();
            direct.release();
        }
    }
}
