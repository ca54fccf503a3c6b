package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ByteBufUtilHexDumpTest {
    private static final byte[] MIXED = {0x00, 0x01, 0x0a, 0x7f, (byte) 0x80, (byte) 0xab, (byte) 0xff};

    private final List<ByteBuf> buffers = new ArrayList<>();

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

    private ByteBuf direct(byte[] content) {
        return track(Unpooled.directBuffer(content.length).writeBytes(content));
    }

    @Test
    void hexDumpWritesTwoLowercaseDigitsPerByte() {
        assertThat(ByteBufUtil.hexDump(MIXED)).isEqualTo("00010a7f80abff");
        assertThat(ByteBufUtil.hexDump(new byte[0])).isEmpty();
        assertThat(ByteBufUtil.hexDump(MIXED, 2, 3)).isEqualTo("0a7f80");
    }

    @Test
    void hexDumpOfABufferCoversOnlyTheReadableBytesAndMovesNoIndex() {
        ByteBuf heap = track(Unpooled.wrappedBuffer(MIXED.clone()));
        heap.readerIndex(1).writerIndex(5);
        assertThat(ByteBufUtil.hexDump(heap)).isEqualTo("010a7f80");
        assertThat(heap.readerIndex()).isEqualTo(1);
        ByteBuf direct = direct(MIXED);
        direct.skipBytes(4);
        assertThat(ByteBufUtil.hexDump(direct)).isEqualTo("80abff");
        assertThat(ByteBufUtil.hexDump(direct, 0, 2)).isEqualTo("0001");
        ByteBuf slice = direct.slice(3, 3);
        assertThat(ByteBufUtil.hexDump(slice)).isEqualTo("7f80ab");
        ByteBuf heapSlice = heap.slice(2, 2);
        assertThat(ByteBufUtil.hexDump(heapSlice)).isEqualTo("0a7f");
    }

    @Test
    void hexDumpOutsideTheCapacityIsRefused() {
        ByteBuf buf = direct(MIXED);
        assertThatThrownBy(() -> ByteBufUtil.hexDump(buf, 5, 3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> ByteBufUtil.hexDump(buf, -1, 1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> ByteBufUtil.hexDump(MIXED, 6, 2)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void decodeHexDumpInvertsHexDumpInEitherCase() {
        Random random = new Random(7);
        for (int length = 0; length < 40; length++) {
            byte[] bytes = new byte[length];
            random.nextBytes(bytes);
            String hex = ByteBufUtil.hexDump(bytes);
            assertThat(ByteBufUtil.decodeHexDump(hex)).isEqualTo(bytes);
            assertThat(ByteBufUtil.decodeHexDump(hex.toUpperCase())).isEqualTo(bytes);
        }
        assertThat(ByteBufUtil.decodeHexDump("xx0aFFyy", 2, 4)).containsExactly(0x0a, 0xff);
    }

    @Test
    void decodeHexDumpRejectsOddLengthsAndNonDigits() {
        assertThatThrownBy(() -> ByteBufUtil.decodeHexDump("abc"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3");
        assertThatThrownBy(() -> ByteBufUtil.decodeHexDump("0g"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'g'");
        assertThatThrownBy(() -> ByteBufUtil.decodeHexDump("0 "))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ByteBufUtil.decodeHexDump("0x12"))
                .isInstanceOf(IllegalArgumentException.class);
        // FULLWIDTH DIGIT ONE: Character.digit accepts it, a hex dump must not.
        assertThatThrownBy(() -> ByteBufUtil.decodeHexDump("\uFF11\uFF11"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ByteBufUtil.decodeHexDump("0011", 3, 2))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void prettyHexDumpDrawsTheSixteenByteTable() {
        ByteBuf buf = track(Unpooled.copiedBuffer("Hello, world!\n", StandardCharsets.US_ASCII));
        assertThat(ByteBufUtil.prettyHexDump(buf)).isEqualTo(""
                + "         +-------------------------------------------------+\n"
                + "         |  0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f |\n"
                + "+--------+-------------------------------------------------+----------------+\n"
                + "|00000000| 48 65 6c 6c 6f 2c 20 77 6f 72 6c 64 21 0a       |Hello, world!.  |\n"
                + "+--------+-------------------------------------------------+----------------+");
    }

    @Test
    void prettyHexDumpNumbersRowsFromTheRangeStartAndDotsUnprintableBytes() {
        byte[] content = new byte[20];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (0x7a + i);
        }
        ByteBuf buf = direct(content);
        buf.readerIndex(2);
        assertThat(ByteBufUtil.prettyHexDump(buf)).isEqualTo(""
                + "         +-------------------------------------------------+\n"
                + "         |  0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f |\n"
                + "+--------+-------------------------------------------------+----------------+\n"
                + "|00000000| 7c 7d 7e 7f 80 81 82 83 84 85 86 87 88 89 8a 8b ||}~.............|\n"
                + "|00000010| 8c 8d                                           |..              |\n"
                + "+--------+-------------------------------------------------+----------------+");
        assertThat(buf.readerIndex()).isEqualTo(2);
    }

    @Test
    void prettyHexDumpOfNothingIsEmptyAndAppendingKeepsWhatWasThere() {
        ByteBuf empty = track(Unpooled.buffer(4));
        assertThat(ByteBufUtil.prettyHexDump(empty)).isEmpty();
        ByteBuf buf = track(Unpooled.wrappedBuffer(new byte[] {'A'}));
        StringBuilder dump = new StringBuilder("before\n");
        ByteBufUtil.appendPrettyHexDump(dump, buf);
        assertThat(dump.toString()).startsWith("before\n         +---")
                .contains("|00000000| 41                                              |A               |\n");
        assertThatThrownBy(() -> ByteBufUtil.prettyHexDump(buf, 0, 2)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
