package io.weir.handler.codec;

import static io.weir.handler.codec.Inbound.ascii;
import static io.weir.handler.codec.Inbound.buf;
import static io.weir.handler.codec.Inbound.drain;
import static io.weir.handler.codec.Inbound.feed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class LengthFieldBasedFrameDecoderTest {

    private static byte[] bytes(ByteBuf b) {
        try {
            return ByteBufUtil.getBytes(b);
        } finally {
            b.release();
        }
    }

    /** Writes {@code value} as a {@code length}-byte field in {@code order}. */
    private static ByteBuf field(ByteBuf b, int length, long value, ByteOrder order) {
        boolean big = order == ByteOrder.BIG_ENDIAN;
        switch (length) {
            case 1 -> b.writeByte((int) value);
            case 2 -> {
                if (big) {
                    b.writeShort((int) value);
                } else {
                    b.writeShortLE((int) value);
                }
            }
            case 3 -> {
                if (big) {
                    b.writeMedium((int) value);
                } else {
                    b.writeMediumLE((int) value);
                }
            }
            case 4 -> {
                if (big) {
                    b.writeInt((int) value);
                } else {
                    b.writeIntLE((int) value);
                }
            }
            default -> {
                if (big) {
                    b.writeLong(value);
                } else {
                    b.writeLongLE(value);
                }
            }
        }
        return b;
    }

    private static void assertSameFramesAnyFragmentation(Supplier<LengthFieldBasedFrameDecoder> decoder, byte[] input,
                                                         List<String> expected) {
        for (int chunk : new int[] {1, 2, 3, 7, 0}) {
            EmbeddedChannel ch = new EmbeddedChannel(decoder.get());
            assertThat(feed(ch, input, chunk)).as("chunk %d", chunk).isEqualTo(expected);
            assertThat(ch.finish()).isFalse();
        }
    }

    @Test
    void framesComeOutTheSameByteByByteAndAllAtOnceForEveryFieldLengthAndOrder() {
        for (ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            for (int len : new int[] {1, 2, 3, 4, 8}) {
                ByteBuf in = Unpooled.buffer();
                List<String> expected = new ArrayList<>();
                for (String content : new String[] {"hello", "", "w", "a longer frame of text"}) {
                    field(in, len, content.length(), order).writeBytes(ascii(content));
                    expected.add(content);
                }
                int fieldLength = len;
                assertSameFramesAnyFragmentation(() -> new LengthFieldBasedFrameDecoder(order, 1024, 0, fieldLength, 0,
                        fieldLength, true), bytes(in), expected);
            }
        }
    }

    @Test
    void offsetAdjustmentAndStripCombine() {
        // 2-byte magic, 2-byte length counting the whole frame (so adjustment -4), 1 flag byte kept.
        ByteBuf in = Unpooled.buffer();
        for (String content : new String[] {"one", "two!"}) {
            in.writeShort(0xCAFE).writeShort(4 + 1 + content.length()).writeByte('F').writeBytes(ascii(content));
        }
        assertSameFramesAnyFragmentation(() -> new LengthFieldBasedFrameDecoder(64, 2, 2, -4, 4), bytes(in),
                List.of("Fone", "Ftwo!"));
    }

    @Test
    void headerIsKeptWhenNothingIsStripped() {
        ByteBuf in = Unpooled.buffer().writeByte(2).writeBytes(ascii("ok"));
        assertSameFramesAnyFragmentation(() -> new LengthFieldBasedFrameDecoder(64, 0, 1), bytes(in),
                List.of("\u0002ok"));
    }

    @Test
    void tooLongFrameFailsFastAndIsDiscardedWithoutBeingAccumulated() {
        LengthFieldBasedFrameDecoder decoder = new LengthFieldBasedFrameDecoder(100, 0, 4, 0, 4);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ByteBuf head = Unpooled.buffer().writeInt(1000).writeZero(10);
        assertThatThrownBy(() -> ch.writeInbound(head)).isInstanceOf(TooLongFrameException.class)
                .hasMessageContaining("1004").hasMessageContaining("100");
        for (int i = 0; i < 9; i++) {
            ch.writeInbound(Unpooled.buffer().writeZero(100));
            assertThat(decoder.actualReadableBytes()).isZero();
        }
        // 1004 - 14 - 900: the last 90 bytes of the bad frame, then a good one: decoding resumes.
        ch.writeInbound(Unpooled.buffer().writeZero(90).writeInt(2).writeBytes(ascii("ok")));
        assertThat(drain(ch)).containsExactly("ok");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void tooLongFrameWithoutFailFastIsReportedOnceItWentBy() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(ByteOrder.BIG_ENDIAN, 100, 0, 2, 0,
                2, false));
        ch.writeInbound(Unpooled.buffer().writeShort(300).writeZero(100));
        ch.writeInbound(Unpooled.buffer().writeZero(100));
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.buffer().writeZero(100)))
                .isInstanceOf(TooLongFrameException.class).hasMessageContaining("discarded")
                .hasMessageContaining("302");
        ch.writeInbound(Unpooled.buffer().writeShort(2).writeBytes(ascii("ok")));
        assertThat(drain(ch)).containsExactly("ok");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void tooLongFrameAlreadyWhollyReceivedIsSkippedAndTheNextOneDecoded() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(8, 0, 1, 0, 1));
        ByteBuf in = Unpooled.buffer().writeByte(20).writeZero(20).writeByte(2).writeBytes(ascii("ok"));
        assertThatThrownBy(() -> ch.writeInbound(in)).isInstanceOf(TooLongFrameException.class);
        // The good frame waits in the cumulation for the next read, like any bytes after a decode error.
        ch.writeInbound(Unpooled.EMPTY_BUFFER);
        assertThat(drain(ch)).containsExactly("ok");
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void negativeEightByteLengthIsACorruptedFrame() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(64, 0, 8, 0, 8));
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.buffer().writeLong(-5).writeZero(4)))
                .isInstanceOf(CorruptedFrameException.class).hasMessageContaining("-5");
        ch.finishAndReleaseAll();
    }

    @Test
    void hugeLengthsDoNotOverflowIntoAcceptableFrames() {
        for (long length : new long[] {Long.MAX_VALUE, Long.MAX_VALUE - 3, 0xFFFF_FFFFL}) {
            int fieldLength = length == 0xFFFF_FFFFL ? 4 : 8;
            EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(ByteOrder.BIG_ENDIAN, 64, 0,
                    fieldLength, 100, 0, true));
            ByteBuf in = field(Unpooled.buffer(), fieldLength, length, ByteOrder.BIG_ENDIAN).writeZero(16);
            assertThatThrownBy(() -> ch.writeInbound(in)).as("length %d", length)
                    .isInstanceOf(TooLongFrameException.class);
            assertThat(ch.inboundMessages()).isEmpty();
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void adjustmentThatMakesTheFrameShorterThanItsHeaderIsACorruptedFrame() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(64, 0, 2, -10, 0));
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.buffer().writeShort(3).writeZero(3)))
                .isInstanceOf(CorruptedFrameException.class).hasMessageContaining("lengthFieldEndOffset");
        // What follows a corrupt header is noise: the end of input finds another impossible length in it.
        assertThatThrownBy(ch::finishAndReleaseAll).isInstanceOf(CorruptedFrameException.class);
    }

    @Test
    void strippingMoreThanTheFrameIsACorruptedFrame() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(64, 0, 1, 0, 5));
        assertThatThrownBy(() -> ch.writeInbound(Unpooled.buffer().writeByte(1).writeZero(1)))
                .isInstanceOf(CorruptedFrameException.class).hasMessageContaining("initialBytesToStrip");
        ch.finishAndReleaseAll();
    }

    @Test
    void anIncompleteFrameAtTheEndOfInputIsDroppedAndReleased() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(64, 0, 1, 0, 1));
        ByteBuf in = buf("\u0005abc");
        ch.writeInbound(in);
        assertThat(ch.finish()).isFalse();
        assertThat(in.refCnt()).isZero();
    }

    @Test
    void invalidParametersAreRefusedWithTheValue() {
        assertThatThrownBy(() -> new LengthFieldBasedFrameDecoder(0, 0, 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxFrameLength: 0");
        assertThatThrownBy(() -> new LengthFieldBasedFrameDecoder(64, 0, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lengthFieldLength: 5");
        assertThatThrownBy(() -> new LengthFieldBasedFrameDecoder(64, -1, 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lengthFieldOffset: -1");
        assertThatThrownBy(() -> new LengthFieldBasedFrameDecoder(64, 0, 4, 0, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("initialBytesToStrip: -1");
        assertThatThrownBy(() -> new LengthFieldBasedFrameDecoder(8, 6, 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxFrameLength (8)");
    }
}
