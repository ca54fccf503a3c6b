package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * UTF-8 encoding at the edges: every sequence length (1 to 4 bytes) in runs ending exactly at the end of the
 * room, surrogates cut or paired right at a boundary, and text that changes between counting and copying, which
 * must fail rather than write past the buffer (the encoder stores without per-byte checks).
 */
class Utf8EncodingTest {
    private static final byte SENTINEL = 0x55;
    private static final String ONE = "a";
    private static final String TWO = "\u00e9";
    private static final String THREE = "\u20ac";
    private static final String FOUR = "\uD83D\uDE00";
    private static final String[] WIDTHS = {ONE, TWO, THREE, FOUR};
    private static final int MARGIN_BYTES = 7;

    private final List<ByteBuf> parents = new ArrayList<>();
    private final PooledByteBufAllocator pooled = new PooledByteBufAllocator(true, 1, 1, 8192, 1 << 20);

    @AfterEach
    void releaseAll() {
        for (ByteBuf parent : parents) {
            if (parent.refCnt() > 0) {
                parent.release(parent.refCnt());
            }
        }
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Buffers of exactly {@code capacity} bytes, each a slice between two sentinel-filled margins of a larger
     * parent, so a store past either end shows up in the parent; heap, direct, pooled heap and pooled direct.
     */
    private List<ByteBuf> exactBuffers(int capacity) {
        List<IntFunction<ByteBuf>> parentKinds = List.of(
                Unpooled::buffer, Unpooled::directBuffer, pooled::heapBuffer, pooled::directBuffer);
        List<ByteBuf> slices = new ArrayList<>();
        for (IntFunction<ByteBuf> kind : parentKinds) {
            ByteBuf parent = kind.apply(capacity + 2 * MARGIN_BYTES);
            parents.add(parent);
            for (int i = 0; i < parent.capacity(); i++) {
                parent.setByte(i, SENTINEL);
            }
            slices.add(parent.slice(MARGIN_BYTES, capacity).clear());
        }
        return slices;
    }

    private static void assertMarginsUntouched(ByteBuf slice) {
        ByteBuf parent = slice.unwrap();
        int capacity = slice.capacity();
        for (int i = 0; i < MARGIN_BYTES; i++) {
            assertThat(parent.getByte(i)).as("byte %d before the slice", MARGIN_BYTES - i).isEqualTo(SENTINEL);
            assertThat(parent.getByte(MARGIN_BYTES + capacity + i)).as("byte %d after the slice", i)
                    .isEqualTo(SENTINEL);
        }
    }

    private void assertEncodesExactly(String text) {
        byte[] expected = utf8(text);
        for (ByteBuf buf : exactBuffers(expected.length)) {
            assertThat(ByteBufUtil.writeUtf8(buf, text)).as("%s into %s", text, buf).isEqualTo(expected.length);
            assertThat(ByteBufUtil.getBytes(buf)).as("%s into %s", text, buf).isEqualTo(expected);
            assertMarginsUntouched(buf);
        }
    }

    @Test
    void runsOfEveryWidthFillTheRoomToItsLastByte() {
        for (String width : WIDTHS) {
            for (int run = 1; run <= 9; run++) {
                assertEncodesExactly(width.repeat(run));
                for (String other : WIDTHS) {
                    assertEncodesExactly(width.repeat(run) + other);
                    assertEncodesExactly(other + width.repeat(run));
                }
            }
        }
    }

    @Test
    void everyLengthBoundaryOfUtf8IsEncodedAsTheJdkDoes() {
        assertEncodesExactly("\u0000\u007f\u0080\u07ff\u0800\uffff");
        assertEncodesExactly("\uD800\uDC00\uDBFF\uDFFF"); // U+10000 and U+10FFFF, first and last 4-byte code points
        assertEncodesExactly("\ud7ff\ue000"); // just below and above the surrogate range
    }

    @Test
    void aSurrogatePairAtTheEndOfTheRoomIsWrittenWholeWhereverTheChunksFall() {
        // The encoder works in chunks of room/3 chars; across these prefixes a chunk ends on every position
        // around the pair, and the pair is never split into two '?'.
        for (String filler : new String[] {ONE, TWO, THREE}) {
            for (int n = 0; n <= 24; n++) {
                assertEncodesExactly(filler.repeat(n) + FOUR);
                assertEncodesExactly(filler.repeat(n) + FOUR + ONE);
                assertEncodesExactly(filler.repeat(n) + FOUR + FOUR);
            }
        }
    }

    @Test
    void loneSurrogatesBecomeAQuestionMarkAtEitherEnd() {
        for (int n = 0; n <= 12; n++) {
            String prefix = THREE.repeat(n);
            assertEncodesExactly(prefix + "\uD83D"); // a high surrogate cut off by the end
            assertEncodesExactly("\uDE00" + prefix); // a low surrogate with no high before it
            assertEncodesExactly(prefix + "\uD83D\uD83D\uDE00"); // a stray high, then a pair
            assertEncodesExactly(prefix + "\uDE00\uD83D"); // a pair in the wrong order
            assertEncodesExactly(prefix + "\uD83Dx"); // a high followed by a non-surrogate
        }
        assertThat(utf8("\uD83D")).containsExactly('?');
    }

    @Test
    void writingAfterExistingBytesStopsAtTheCapacity() {
        String text = ONE + TWO + THREE + FOUR;
        byte[] expected = utf8(text);
        for (ByteBuf buf : exactBuffers(3 + expected.length)) {
            buf.writeMedium(0x010203);
            assertThat(ByteBufUtil.writeUtf8(buf, new StringBuilder(text))).isEqualTo(expected.length);
            assertThat(buf.writerIndex()).isEqualTo(buf.capacity());
            assertThat(Arrays.copyOfRange(ByteBufUtil.getBytes(buf), 3, buf.writerIndex())).isEqualTo(expected);
            assertMarginsUntouched(buf);
        }
    }

    @Test
    void randomTextIntoExactlySizedBuffersMatchesTheJdk() {
        Random random = new Random(0x0DDBA11L);
        String[] pieces = {ONE, "Z", TWO, "\u0416", THREE, "\u4ef7", FOUR, "\uD83D", "\uDE00"};
        for (int round = 0; round < 200; round++) {
            StringBuilder text = new StringBuilder();
            int pieceCount = random.nextInt(40);
            for (int i = 0; i < pieceCount; i++) {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
            assertEncodesExactly(text.toString());
        }
    }

    @Test
    void textThatGrowsBetweenCountingAndCopyingFailsInsteadOfWritingPastTheBuffer() {
        // Worst case (3 bytes per char) does not fit, so writeUtf8 counts first and grows only by what it counted.
        for (ByteBuf buf : exactBuffers(40)) {
            ShapeShifter text = new ShapeShifter(40);
            assertThatThrownBy(() -> ByteBufUtil.writeUtf8(buf, text)).isInstanceOf(IndexOutOfBoundsException.class)
                    .hasMessageContaining("changed");
            assertThat(text.charAtCalls).as("the text was counted, then read again to copy").isGreaterThan(40);
            assertThat(buf.writerIndex()).isZero();
            assertMarginsUntouched(buf);
        }
    }

    @Test
    void theArrayEncoderNeverWritesAtOrPastItsLimit() {
        byte[] dst = new byte[64];
        Arrays.fill(dst, SENTINEL);
        ShapeShifter text = new ShapeShifter(20);
        text.counted = true; // already CJK: 60 bytes for a 20-byte room
        assertThatThrownBy(() -> Utf8.encode(text, 0, 20, dst, 10, 30)).isInstanceOf(IndexOutOfBoundsException.class);
        for (int i = 0; i < 10; i++) {
            assertThat(dst[i]).isEqualTo(SENTINEL);
        }
        for (int i = 30; i < 64; i++) {
            assertThat(dst[i]).as("byte %d", i).isEqualTo(SENTINEL);
        }
        assertThatThrownBy(() -> Utf8.encode("x", 0, 1, dst, 60, 65)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(Utf8.encode("abc", 0, 3, dst, 61, 64)).isEqualTo(64);
    }

    /**
     * ASCII while it is counted (every char read once), then a 3-byte char on every later read: what a
     * StringBuilder mutated by another thread could look like to the encoder.
     */
    private static final class ShapeShifter implements CharSequence {
        private final int length;
        int charAtCalls;
        boolean counted;

        ShapeShifter(int length) {
            this.length = length;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public char charAt(int index) {
            if (++charAtCalls > length) {
                counted = true;
            }
            return counted ? '\u4ef7' : 'a';
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            throw new UnsupportedOperationException();
        }

        @Override
        public String toString() {
            return "ShapeShifter(" + length + ")";
        }
    }
}
