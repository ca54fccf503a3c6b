package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.util.ByteProcessor;
import io.weir.util.platform.MemoryAccess;
import io.weir.util.platform.PlatformInfo;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The word-at-a-time byte search behind {@code indexOf}, {@code bytesBefore} and the single-byte
 * {@code forEachByte} finders, checked against a byte-by-byte reference on every buffer kind.
 */
class ByteSearchTest {
    /** Far enough from 0 that a view's reads start at an address no word read is aligned to. */
    private static final int VIEW_OFFSET = 3;

    enum Kind {
        HEAP(capacity -> new UnpooledHeapByteBuf(UnpooledByteBufAllocator.DEFAULT, capacity, capacity)),
        UNSAFE_HEAP(capacity -> new UnpooledUnsafeHeapByteBuf(UnpooledByteBufAllocator.DEFAULT, capacity, capacity)),
        DIRECT(capacity -> new UnpooledDirectByteBuf(UnpooledByteBufAllocator.DEFAULT, capacity, capacity)),
        UNSAFE_DIRECT(capacity ->
                new UnpooledUnsafeDirectByteBuf(UnpooledByteBufAllocator.DEFAULT, capacity, capacity)),
        SLICE_OF_HEAP(capacity -> new UnpooledHeapByteBuf(UnpooledByteBufAllocator.DEFAULT,
                capacity + 2 * VIEW_OFFSET, capacity + 2 * VIEW_OFFSET).slice(VIEW_OFFSET, capacity)),
        SLICE_OF_DIRECT(capacity -> new UnpooledDirectByteBuf(UnpooledByteBufAllocator.DEFAULT,
                capacity + 2 * VIEW_OFFSET, capacity + 2 * VIEW_OFFSET).slice(VIEW_OFFSET, capacity)),
        SLICE_OF_UNSAFE_DIRECT(capacity -> new UnpooledUnsafeDirectByteBuf(UnpooledByteBufAllocator.DEFAULT,
                capacity + 2 * VIEW_OFFSET, capacity + 2 * VIEW_OFFSET).slice(VIEW_OFFSET, capacity)),
        READ_ONLY_DIRECT(capacity ->
                new UnpooledDirectByteBuf(UnpooledByteBufAllocator.DEFAULT, capacity, capacity).asReadOnly());

        private final IntFunction<ByteBuf> factory;

        Kind(IntFunction<ByteBuf> factory) {
            this.factory = factory;
        }

        /** A buffer of exactly {@code capacity} bytes holding {@code content}; the caller releases it. */
        ByteBuf holding(byte[] content) {
            if (this == UNSAFE_HEAP) {
                assumeTrue(PlatformInfo.hasUnsafe(), "Unsafe is not available");
            }
            if (this == UNSAFE_DIRECT || this == SLICE_OF_UNSAFE_DIRECT) {
                assumeTrue(MemoryAccess.hasAddress(), "raw memory addresses are not available");
            }
            ByteBuf buf = factory.apply(content.length);
            ByteBuf writable = buf.unwrap() == null ? buf : buf.unwrap();
            int offset = buf.unwrap() == null || this == READ_ONLY_DIRECT ? 0 : VIEW_OFFSET;
            writable.setBytes(offset, content);
            buf.writerIndex(content.length);
            return buf;
        }
    }

    private final Random random = new Random(0xB17E5L);

    private static int naiveFirst(byte[] content, int from, int to, byte value) {
        for (int i = from; i < to; i++) {
            if (content[i] == value) {
                return i;
            }
        }
        return -1;
    }

    private static int naiveLast(byte[] content, int low, int high, byte value) {
        for (int i = high - 1; i >= low; i--) {
            if (content[i] == value) {
                return i;
            }
        }
        return -1;
    }

    /** Random bytes from a small alphabet so that most ranges hold a match and many hold several. */
    private byte[] randomContent(int length, int alphabet) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (0x7E + random.nextInt(alphabet));
        }
        return bytes;
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void everyStartAndLengthUpTo64FindsWhatAByteLoopFinds(Kind kind) {
        byte[] content = randomContent(64 + 16, 6);
        ByteBuf buf = kind.holding(content);
        try {
            for (int from = 0; from < 16; from++) {
                for (int length = 0; length <= 64; length++) {
                    int to = from + length;
                    for (int v = 0x7D; v <= 0x84; v++) {
                        byte value = (byte) v;
                        int first = naiveFirst(content, from, to, value);
                        assertThat(buf.indexOf(from, to, value)).as("forward [%d, %d) for %d", from, to, v)
                                .isEqualTo(first);
                        assertThat(buf.indexOf(to, from, value)).as("backward [%d, %d) for %d", from, to, v)
                                .isEqualTo(naiveLast(content, from, to, value));
                        assertThat(buf.bytesBefore(from, length, value)).isEqualTo(first < 0 ? -1 : first - from);
                    }
                }
            }
        } finally {
            buf.release();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void randomRangesOfALargeBufferFindWhatAByteLoopFinds(Kind kind) {
        byte[] content = new byte[4096 + 13];
        random.nextBytes(content);
        ByteBuf buf = kind.holding(content);
        try {
            for (int round = 0; round < 2000; round++) {
                int a = random.nextInt(content.length + 1);
                int b = random.nextInt(content.length + 1);
                int low = Math.min(a, b);
                int high = Math.max(a, b);
                byte value = (byte) random.nextInt(256);
                assertThat(buf.indexOf(low, high, value)).isEqualTo(naiveFirst(content, low, high, value));
                assertThat(buf.indexOf(high, low, value)).isEqualTo(naiveLast(content, low, high, value));
            }
        } finally {
            buf.release();
        }
    }

    /**
     * One match among bytes that differ from it only in bit 0 or bit 7: after the XOR those become 0x01 and
     * 0x80, which the short has-zero-byte formula flags next to a real zero (a false match one byte early
     * or late).
     */
    @ParameterizedTest
    @EnumSource(Kind.class)
    void aSingleMatchAmongNearMissesIsFoundAtItsExactPosition(Kind kind) {
        int[] values = {0x00, 0x01, '\n', '\r', 0x7F, 0x80, 0x81, 0xFE, 0xFF};
        for (int length : new int[] {1, 7, 8, 9, 15, 16, 17, 31, 40, 200}) {
            for (int v : values) {
                byte value = (byte) v;
                byte[] content = new byte[length];
                for (int i = 0; i < length; i++) {
                    int near = switch (i % 3) {
                        case 0 -> v ^ 0x01;
                        case 1 -> v ^ 0x80;
                        default -> v ^ 0x81;
                    };
                    content[i] = (byte) near;
                }
                ByteBuf buf = kind.holding(content);
                try {
                    assertThat(buf.indexOf(0, length, value)).isEqualTo(-1);
                    assertThat(buf.indexOf(length, 0, value)).isEqualTo(-1);
                    for (int at = 0; at < length; at++) {
                        buf.setByte(at, value);
                        assertThat(buf.indexOf(0, length, value)).as("forward, %d at %d", v, at).isEqualTo(at);
                        assertThat(buf.indexOf(length, 0, value)).as("backward, %d at %d", v, at).isEqualTo(at);
                        assertThat(buf.bytesBefore(value)).isEqualTo(at);
                        buf.setByte(at, content[at]);
                    }
                } catch (java.nio.ReadOnlyBufferException readOnly) {
                    assertThat(kind).isEqualTo(Kind.READ_ONLY_DIRECT);
                } finally {
                    buf.release();
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void theSingleByteFindersOfForEachByteStopWhereAByteLoopStops(Kind kind) {
        byte[] content = new byte[300];
        String alphabet = "ab\r\n\0,;";
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) alphabet.charAt(random.nextInt(alphabet.length()));
        }
        ByteBuf buf = kind.holding(content);
        ByteProcessor[] finders = {ByteProcessor.FIND_LF, ByteProcessor.FIND_CR, ByteProcessor.FIND_NUL,
                ByteProcessor.FIND_COMMA, ByteProcessor.FIND_SEMI_COLON};
        byte[] sought = {'\n', '\r', 0, ',', ';'};
        try {
            for (int round = 0; round < 500; round++) {
                int index = random.nextInt(content.length + 1);
                int length = random.nextInt(content.length - index + 1);
                for (int f = 0; f < finders.length; f++) {
                    assertThat(buf.forEachByte(index, length, finders[f]))
                            .isEqualTo(naiveFirst(content, index, index + length, sought[f]));
                    assertThat(buf.forEachByteDesc(index, length, finders[f]))
                            .isEqualTo(naiveLast(content, index, index + length, sought[f]));
                }
            }
        } finally {
            buf.release();
        }
    }

    @Test
    void zeroBytesFlagsExactlyTheZeroBytesOfAWord() {
        for (int round = 0; round < 20_000; round++) {
            long word = random.nextLong();
            // Zero out a random subset of bytes, leaving 0x01 and 0x80 neighbours common.
            long expected = 0;
            for (int b = 0; b < 8; b++) {
                int pick = random.nextInt(4);
                long replacement = pick == 0 ? 0 : pick == 1 ? 0x01 : pick == 2 ? 0x80 : (word >>> (8 * b)) & 0xFF;
                word = word & ~(0xFFL << (8 * b)) | replacement << (8 * b);
                if (replacement == 0) {
                    expected |= 0x80L << (8 * b);
                }
            }
            assertThat(ByteSearch.zeroBytes(word)).as("word %016x", word).isEqualTo(expected);
        }
    }
}
