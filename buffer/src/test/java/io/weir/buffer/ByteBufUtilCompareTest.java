package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code equals}, {@code compare}, {@code indexOf} of a sub-buffer and {@code getBytes}. */
class ByteBufUtilCompareTest {
    private final List<ByteBuf> buffers = new ArrayList<>();
    private final Random random = new Random(0xC0FEL);

    @AfterEach
    void releaseAll() {
        for (ByteBuf buf : buffers) {
            if (buf.refCnt() > 0) {
                buf.release(buf.refCnt());
            }
        }
        buffers.clear();
    }

    /** A heap or direct buffer whose readable bytes are {@code content}, behind {@code lead} other bytes. */
    private ByteBuf holding(byte[] content, int lead, boolean direct) {
        ByteBuf buf = direct ? Unpooled.directBuffer(lead + content.length) : Unpooled.buffer(lead + content.length);
        buffers.add(buf);
        buf.writeZero(lead).writeBytes(content).readerIndex(lead);
        return buf;
    }

    /** Bytes from a two-letter alphabet with a high-bit letter, so prefixes and repeats are common. */
    private byte[] randomBytes(int maxLength) {
        byte[] bytes = new byte[random.nextInt(maxLength + 1)];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = random.nextInt(4) == 0 ? (byte) 0xF1 : (byte) 'a';
        }
        return bytes;
    }

    private static int naiveIndexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Test
    void equalsAndCompareAgreeWithByteByByteReferences() {
        for (int round = 0; round < 3000; round++) {
            byte[] a = randomBytes(40);
            byte[] b = random.nextBoolean() ? a.clone() : randomBytes(40);
            if (b.length > 0 && random.nextBoolean()) {
                b[random.nextInt(b.length)] ^= (byte) 0x80;
            }
            ByteBuf bufA = holding(a, random.nextInt(9), random.nextBoolean());
            ByteBuf bufB = holding(b, random.nextInt(9), random.nextBoolean());
            assertThat(ByteBufUtil.equals(bufA, bufB)).isEqualTo(Arrays.equals(a, b));
            int compared = ByteBufUtil.compare(bufA, bufB);
            assertThat(compared).isEqualTo(bufA.compareTo(bufB));
            assertThat(Integer.signum(compared)).isEqualTo(Integer.signum(Arrays.compareUnsigned(a, b)));
            int length = Math.min(a.length, b.length);
            int aStart = random.nextInt(length + 1);
            int bStart = random.nextInt(length + 1);
            int rangeLength = random.nextInt(length - Math.max(aStart, bStart) + 1);
            assertThat(ByteBufUtil.equals(bufA, bufA.readerIndex() + aStart, bufB, bufB.readerIndex() + bStart,
                    rangeLength)).isEqualTo(Arrays.equals(a, aStart, aStart + rangeLength, b, bStart,
                    bStart + rangeLength));
            releaseAll();
        }
    }

    @Test
    void equalsOfRangesPastTheWriterIndexIsFalseAndNegativeArgumentsAreRefused() {
        ByteBuf a = holding("abcdef".getBytes(StandardCharsets.US_ASCII), 0, false);
        ByteBuf b = holding("xxabcdef".getBytes(StandardCharsets.US_ASCII), 0, true);
        assertThat(ByteBufUtil.equals(a, 0, b, 2, 6)).isTrue();
        assertThat(ByteBufUtil.equals(a, 1, b, 3, 6)).isFalse();
        assertThat(ByteBufUtil.equals(a, 6, b, 8, 0)).isTrue();
        assertThatThrownBy(() -> ByteBufUtil.equals(a, -1, b, 0, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> ByteBufUtil.equals(a, 0, b, 0, -2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-2");
    }

    @Test
    void compareOrdersBytesUnsignedAndPrefixesFirst() {
        ByteBuf low = holding(new byte[] {1, 2, 0x7F}, 0, false);
        ByteBuf high = holding(new byte[] {1, 2, (byte) 0x80}, 3, true);
        ByteBuf prefix = holding(new byte[] {1, 2}, 0, true);
        assertThat(ByteBufUtil.compare(low, high)).isNegative();
        assertThat(ByteBufUtil.compare(high, low)).isPositive();
        assertThat(ByteBufUtil.compare(prefix, low)).isNegative();
        assertThat(ByteBufUtil.compare(low, low)).isZero();
    }

    @Test
    void indexOfFindsTheFirstOccurrenceAmongTheReadableBytes() {
        for (int round = 0; round < 3000; round++) {
            byte[] haystack = randomBytes(100);
            byte[] needle = randomBytes(random.nextInt(3) == 0 ? 3 : 12);
            if (random.nextBoolean() && haystack.length > 0) {
                int from = random.nextInt(haystack.length);
                needle = Arrays.copyOfRange(haystack, from, Math.min(haystack.length, from + random.nextInt(20)));
            }
            int lead = random.nextInt(9);
            ByteBuf hay = holding(haystack, lead, random.nextBoolean());
            ByteBuf nee = holding(needle, random.nextInt(5), random.nextBoolean());
            int expected = naiveIndexOf(haystack, needle);
            assertThat(ByteBufUtil.indexOf(nee, hay)).isEqualTo(expected < 0 ? -1 : lead + expected);
            assertThat(nee.readableBytes()).isEqualTo(needle.length);
            releaseAll();
        }
    }

    @Test
    void indexOfSurvivesTheNeedleThatMatchesAlmostEverywhere() {
        byte[] haystack = new byte[4096];
        Arrays.fill(haystack, (byte) 'a');
        byte[] needle = new byte[64];
        Arrays.fill(needle, (byte) 'a');
        needle[32] = 'b';
        ByteBuf hay = holding(haystack, 0, true);
        ByteBuf nee = holding(needle, 0, false);
        assertThat(ByteBufUtil.indexOf(nee, hay)).isEqualTo(-1);
        hay.setByte(4000, 'b');
        assertThat(ByteBufUtil.indexOf(nee, hay)).isEqualTo(4000 - 32);
    }

    @Test
    void indexOfOfAnEmptyOrLongerNeedle() {
        ByteBuf hay = holding("abc".getBytes(StandardCharsets.US_ASCII), 2, false);
        assertThat(ByteBufUtil.indexOf(holding(new byte[0], 0, false), hay)).isEqualTo(2);
        assertThat(ByteBufUtil.indexOf(holding("abcd".getBytes(StandardCharsets.US_ASCII), 0, false), hay))
                .isEqualTo(-1);
        assertThat(ByteBufUtil.indexOf(holding("c".getBytes(StandardCharsets.US_ASCII), 0, true), hay)).isEqualTo(4);
    }

    @Test
    void getBytesCopiesUnlessTheBackingArrayIsExactlyTheRange() {
        byte[] array = {1, 2, 3, 4};
        ByteBuf wrapped = Unpooled.wrappedBuffer(array);
        buffers.add(wrapped);
        assertThat(ByteBufUtil.getBytes(wrapped, 0, 4, false)).isSameAs(array);
        assertThat(ByteBufUtil.getBytes(wrapped, 0, 4, true)).isNotSameAs(array).isEqualTo(array);
        assertThat(ByteBufUtil.getBytes(wrapped, 1, 2, false)).containsExactly(2, 3);
        assertThat(ByteBufUtil.getBytes(wrapped.slice(0, 4), 0, 4, false)).isSameAs(array);
        assertThat(ByteBufUtil.getBytes(wrapped.slice(1, 3), 0, 3, false)).containsExactly(2, 3, 4);
        wrapped.readerIndex(3);
        assertThat(ByteBufUtil.getBytes(wrapped)).containsExactly(4);
        ByteBuf direct = holding(array, 0, true);
        assertThat(ByteBufUtil.getBytes(direct, 1, 3, false)).containsExactly(2, 3, 4);
        assertThatThrownBy(() -> ByteBufUtil.getBytes(direct, 2, 3)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
