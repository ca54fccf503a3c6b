package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.util.AsciiString;
import java.nio.CharBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** UTF-8 and single-byte text written into buffers, and charset encoding and decoding. */
class ByteBufUtilTextTest {
    private static final String[] GOLDEN = {
        "",
        "hello, world",
        "caf\u00e9",                       // 2-byte
        "\u20ac 100",                      // 3-byte
        "\uffff\u0800\u07ff\u0080\u007f",  // every length boundary
        "clef \uD834\uDD1E!",              // U+1D11E, a surrogate pair: 4 bytes
        "\uDBFF\uDFFF",                    // U+10FFFF, the last code point
        "a\uD800b",                        // unpaired high surrogate
        "a\uDC00b",                        // unpaired low surrogate
        "end\uD800",                       // high surrogate cut off by the end
        "\uD800\uD800\uDC00",              // a stray high surrogate before a pair
        "\uDC00\uD800",                    // a pair in the wrong order
    };

    private final List<ByteBuf> buffers = new ArrayList<>();
    private final Random random = new Random(0x7E47L);

    private ByteBuf track(ByteBuf buf) {
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

    /** Growable heap and direct buffers, plus fixed slices of each with room to spare. */
    private List<Supplier<ByteBuf>> kinds(int room) {
        return List.of(
                () -> track(Unpooled.buffer(1)),
                () -> track(Unpooled.directBuffer(1)),
                () -> track(new UnpooledHeapByteBuf(UnpooledByteBufAllocator.DEFAULT, room + 10, room + 10))
                        .slice(5, room).clear(),
                () -> track(Unpooled.directBuffer(room + 10)).slice(3, room).clear(),
                () -> track(new UnpooledDirectByteBuf(UnpooledByteBufAllocator.DEFAULT, 1, Integer.MAX_VALUE)),
                () -> track(new UnpooledHeapByteBuf(UnpooledByteBufAllocator.DEFAULT, 1, Integer.MAX_VALUE)));
    }

    private static byte[] readable(ByteBuf buf) {
        return ByteBufUtil.getBytes(buf);
    }

    private String randomText(int length) {
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            int pick = random.nextInt(6);
            char c = switch (pick) {
                case 0, 1 -> (char) random.nextInt(0x80);
                case 2 -> (char) (0x80 + random.nextInt(0x780));
                case 3 -> (char) (0x800 + random.nextInt(0xD000));
                case 4 -> (char) (0xD800 + random.nextInt(0x800)); // surrogates, often unpaired
                default -> (char) (0xE000 + random.nextInt(0x2000));
            };
            text.append(c);
            if (pick == 4 && c < 0xDC00 && random.nextBoolean()) {
                text.append((char) (0xDC00 + random.nextInt(0x400)));
            }
        }
        return text.toString();
    }

    @Test
    void writeUtf8MatchesTheJdkEncoderOnEveryBufferKind() {
        for (String text : GOLDEN) {
            byte[] expected = text.getBytes(StandardCharsets.UTF_8);
            assertThat(ByteBufUtil.utf8Bytes(text)).as("utf8Bytes of %s", text).isEqualTo(expected.length);
            for (Supplier<ByteBuf> kind : kinds(64)) {
                ByteBuf buf = kind.get();
                buf.writeByte('>');
                assertThat(ByteBufUtil.writeUtf8(buf, text)).isEqualTo(expected.length);
                assertThat(readable(buf)).as("%s into %s", text, buf)
                        .startsWith('>').endsWith(expected).hasSize(expected.length + 1);
            }
        }
    }

    @Test
    void writeUtf8OfRandomTextMatchesTheJdkEncoder() {
        for (int round = 0; round < 300; round++) {
            String text = randomText(random.nextInt(60));
            byte[] expected = text.getBytes(StandardCharsets.UTF_8);
            assertThat(ByteBufUtil.utf8Bytes(text)).isEqualTo(expected.length);
            assertThat(ByteBufUtil.utf8Bytes(new StringBuilder(text))).isEqualTo(expected.length);
            for (Supplier<ByteBuf> kind : kinds(240)) {
                ByteBuf buf = kind.get();
                assertThat(ByteBufUtil.writeUtf8(buf, new StringBuilder(text))).isEqualTo(expected.length);
                assertThat(readable(buf)).isEqualTo(expected);
                buf.release();
            }
            buffers.clear();
        }
    }

    @Test
    void writeUtf8NeedsOnlyTheExactEncodedSizeWithinMaxCapacity() {
        String text = "h\u00e9llo \u20ac"; // 1 + 2 + 3 + 1 + 3 = 10 bytes
        ByteBuf exact = track(Unpooled.buffer(0, 10));
        assertThat(ByteBufUtil.writeUtf8(exact, text)).isEqualTo(10);
        ByteBuf tooSmall = track(Unpooled.directBuffer(0, 9));
        assertThatThrownBy(() -> ByteBufUtil.writeUtf8(tooSmall, text)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(tooSmall.writerIndex()).isZero();
    }

    @Test
    void writeUtf8CopiesAnAsciiStringAsItsBytes() {
        ByteBuf buf = track(Unpooled.directBuffer(2));
        AsciiString ascii = new AsciiString("xxheaderxx").subSequence(2, 8, false);
        assertThat(ByteBufUtil.writeUtf8(buf, ascii)).isEqualTo(6);
        assertThat(buf.toString(StandardCharsets.US_ASCII)).isEqualTo("header");
        assertThat(ByteBufUtil.utf8Bytes(ascii)).isEqualTo(6);
    }

    @Test
    void reserveAndWriteUtf8LeavesTheReservedRoom() {
        ByteBuf buf = track(Unpooled.buffer(0));
        assertThat(ByteBufUtil.reserveAndWriteUtf8(buf, "\u00e9t\u00e9", 100)).isEqualTo(5);
        assertThat(buf.writableBytes()).isGreaterThanOrEqualTo(95);
        assertThat(buf.toString(StandardCharsets.UTF_8)).isEqualTo("\u00e9t\u00e9");
        // Reserving too little is still correct.
        assertThat(ByteBufUtil.reserveAndWriteUtf8(buf, "x".repeat(500), 1)).isEqualTo(500);
        assertThatThrownBy(() -> ByteBufUtil.reserveAndWriteUtf8(buf, "x", -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }

    @Test
    void writingTextIntoAReadOnlyViewIsRefusedAndLeavesTheParentAlone() {
        ByteBuf parent = track(Unpooled.buffer(16));
        ByteBuf readOnly = parent.asReadOnly();
        assertThatThrownBy(() -> ByteBufUtil.writeUtf8(readOnly, "abc")).isInstanceOf(ReadOnlyBufferException.class);
        assertThatThrownBy(() -> ByteBufUtil.writeAscii(readOnly, "abc")).isInstanceOf(ReadOnlyBufferException.class);
        assertThat(parent.writerIndex()).isZero();
        assertThat(parent.getByte(0)).isNotEqualTo((byte) 'a');
    }

    @Test
    void utf8MaxBytesIsThreePerCharAndSaturates() {
        assertThat(ByteBufUtil.utf8MaxBytes(0)).isZero();
        assertThat(ByteBufUtil.utf8MaxBytes(10)).isEqualTo(30);
        assertThat(ByteBufUtil.utf8MaxBytes(Integer.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
        assertThatThrownBy(() -> ByteBufUtil.utf8MaxBytes(-1)).isInstanceOf(IllegalArgumentException.class);
        for (String text : GOLDEN) {
            assertThat(ByteBufUtil.utf8Bytes(text)).isLessThanOrEqualTo(ByteBufUtil.utf8MaxBytes(text.length()));
        }
    }

    @Test
    void writeAsciiWritesOneBytePerCharAndQuestionMarksBeyondLatin1() {
        String text = "ab\u00e9\u00ff\u0100\u20ac\uD834\uDD1E";
        byte[] expected = {'a', 'b', (byte) 0xe9, (byte) 0xff, '?', '?', '?', '?'};
        for (Supplier<ByteBuf> kind : kinds(16)) {
            ByteBuf buf = kind.get();
            assertThat(ByteBufUtil.writeAscii(buf, text)).isEqualTo(text.length());
            assertThat(readable(buf)).isEqualTo(expected);
        }
        ByteBuf buf = track(Unpooled.buffer(0));
        assertThat(ByteBufUtil.writeAscii(buf, new AsciiString("GET /"))).isEqualTo(5);
        assertThat(buf.toString(StandardCharsets.US_ASCII)).isEqualTo("GET /");
    }

    @Test
    void copyOfAnAsciiStringWritesItsBytes() {
        AsciiString src = new AsciiString("--Host--").subSequence(2, 6, false);
        ByteBuf dst = track(Unpooled.directBuffer(1));
        ByteBufUtil.copy(src, dst);
        assertThat(dst.toString(StandardCharsets.US_ASCII)).isEqualTo("Host");
        ByteBufUtil.copy(src, 1, dst, 0, 2);
        assertThat(dst.toString(StandardCharsets.US_ASCII)).isEqualTo("osst");
        assertThat(dst.writerIndex()).isEqualTo(4);
        assertThatThrownBy(() -> ByteBufUtil.copy(src, 3, dst, 0, 2)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void encodeStringMatchesStringGetBytesWithoutMovingTheSource() {
        Charset[] charsets = {StandardCharsets.UTF_8, StandardCharsets.UTF_16BE, StandardCharsets.US_ASCII,
                StandardCharsets.ISO_8859_1};
        for (String text : GOLDEN) {
            for (Charset charset : charsets) {
                CharBuffer src = CharBuffer.wrap("[" + text + "]");
                src.position(1).limit(src.limit() - 1);
                ByteBuf encoded = track(ByteBufUtil.encodeString(UnpooledByteBufAllocator.DEFAULT, src, charset, 7));
                assertThat(readable(encoded)).as("%s in %s", text, charset).isEqualTo(text.getBytes(charset));
                assertThat(encoded.writableBytes()).isGreaterThanOrEqualTo(7);
                assertThat(src.position()).isEqualTo(1);
            }
        }
        assertThatThrownBy(() -> ByteBufUtil.encodeString(UnpooledByteBufAllocator.DEFAULT, CharBuffer.wrap("x"),
                StandardCharsets.UTF_8, -1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void decodeStringDecodesTheRangeWithoutMovingIndexes() {
        byte[] utf8 = "x\u00e9\u20acy".getBytes(StandardCharsets.UTF_8);
        ByteBuf buf = track(Unpooled.directBuffer(utf8.length).writeBytes(utf8));
        assertThat(ByteBufUtil.decodeString(buf, 1, utf8.length - 2, StandardCharsets.UTF_8)).isEqualTo("\u00e9\u20ac");
        assertThat(ByteBufUtil.decodeString(buf, 0, 0, StandardCharsets.UTF_8)).isEmpty();
        assertThat(buf.readerIndex()).isZero();
        // A cut sequence decodes to the replacement character rather than failing.
        assertThat(ByteBufUtil.decodeString(buf, 0, 2, StandardCharsets.UTF_8)).isEqualTo("x\uFFFD");
    }
}
