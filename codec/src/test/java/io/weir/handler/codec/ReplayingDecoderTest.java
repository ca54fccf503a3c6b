package io.weir.handler.codec;

import static io.weir.handler.codec.Inbound.ascii;
import static io.weir.handler.codec.Inbound.buf;
import static io.weir.handler.codec.Inbound.drain;
import static io.weir.handler.codec.Inbound.feed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplayingDecoderTest {

    /** A 1-byte length then that many bytes, read with no length checks at all. */
    static final class ByteLengthDecoder extends ReplayingDecoder<Void> {
        @Override
        protected void decode(ChannelHandlerContext ctx, ReplayingDecoderBuffer in, List<Object> out) {
            int length = in.readUnsignedByte();
            out.add(in.readRetainedSlice(length));
        }
    }

    enum Phase { HEADER, BODY }

    /** A 2-byte length, checkpointed, then the body; counts how often the header is read. */
    static final class CheckpointingDecoder extends ReplayingDecoder<Phase> {
        final boolean useCheckpoints;
        int headerReads;
        private int length;

        CheckpointingDecoder(boolean useCheckpoints) {
            super(Phase.HEADER);
            this.useCheckpoints = useCheckpoints;
        }

        @Override
        protected void decode(ChannelHandlerContext ctx, ReplayingDecoderBuffer in, List<Object> out) {
            if (state() == Phase.HEADER) {
                length = in.readUnsignedShort();
                headerReads++;
                if (useCheckpoints) {
                    checkpoint(Phase.BODY);
                } else {
                    state(Phase.BODY);
                }
            }
            ByteBuf body = in.readRetainedSlice(length);
            checkpoint(Phase.HEADER);
            out.add(body);
        }
    }

    @Test
    void framesComeOutTheSameByteByByteAndAllAtOnce() {
        byte[] input = ascii("\u0003abc\u0000\u0005hello\u0001");
        for (int chunk : new int[] {1, 2, 3, 0}) {
            EmbeddedChannel ch = new EmbeddedChannel(new ByteLengthDecoder());
            assertThat(feed(ch, input, chunk)).as("chunk %d", chunk).containsExactly("abc", "", "hello");
            assertThat(ch.finish()).isFalse();
        }
    }

    @Test
    void aCheckpointedHeaderIsReadOnceHoweverTheBodyArrives() {
        CheckpointingDecoder decoder = new CheckpointingDecoder(true);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        assertThat(feed(ch, ascii("\u0000\u0006abcdef\u0000\u0002xy"), 1)).containsExactly("abcdef", "xy");
        assertThat(decoder.headerReads).isEqualTo(2);
        assertThat(decoder.state()).isEqualTo(Phase.HEADER);
        ch.finish();
    }

    @Test
    void withoutACheckpointAReplayRewindsToTheStartOfTheCall() {
        CheckpointingDecoder decoder = new CheckpointingDecoder(false);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        // The state moved to BODY but the header bytes were rewound: the body is read from the header's place.
        ch.writeInbound(buf("\u0000\u0003ab"));
        assertThat(decoder.state()).isEqualTo(Phase.BODY);
        assertThat(decoder.actualReadableBytes()).isEqualTo(4);
        ch.finishAndReleaseAll();
    }

    @Test
    void searchesReplayUntilTheirByteArrives() {
        EmbeddedChannel ch = new EmbeddedChannel(new ReplayingDecoder<Void>() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ReplayingDecoderBuffer in, List<Object> out) {
                int length = in.bytesBefore((byte) '\n');
                out.add(in.readCharSequence(length, StandardCharsets.US_ASCII).toString());
                in.skipBytes(1);
            }
        });
        assertThat(feed(ch, ascii("one\ntwo\nthr"), 1)).containsExactly("one", "two");
        ch.writeInbound(buf("ee\n"));
        assertThat(drain(ch)).containsExactly("three");
        ch.finish();
    }

    @Test
    void aDecodeThatReturnsWithoutProgressIsReported() {
        EmbeddedChannel ch = new EmbeddedChannel(new ReplayingDecoder<Void>() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ReplayingDecoderBuffer in, List<Object> out) {
                out.add("nothing read");
            }
        });
        assertThatThrownBy(() -> ch.writeInbound(buf("x"))).isInstanceOf(DecoderException.class)
                .hasMessageContaining("without reading input");
        drain(ch);
        assertThatThrownBy(ch::finishAndReleaseAll).isInstanceOf(DecoderException.class);
        drain(ch);
    }

    @Test
    void aPartialMessageAtTheEndOfInputIsDroppedAndReleased() {
        EmbeddedChannel ch = new EmbeddedChannel(new ByteLengthDecoder());
        ByteBuf in = buf("\u0009abc");
        ch.writeInbound(in);
        assertThat(ch.finish()).isFalse();
        assertThat(in.refCnt()).isZero();
    }

    @Test
    void leftoversFromTheLastCheckpointAreHandedOnWhenRemoved() {
        ByteLengthDecoder decoder = new ByteLengthDecoder();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(buf("\u0002ok\u0004pa"));
        ch.pipeline().remove(decoder);
        assertThat(drain(ch)).containsExactly("ok", "\u0004pa");
        ch.finish();
    }

    @Test
    void singleDecodeModeStopsAfterOneMessage() {
        ByteLengthDecoder decoder = new ByteLengthDecoder();
        decoder.setSingleDecode(true);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(buf("\u0001a\u0001b"));
        assertThat(drain(ch)).containsExactly("a");
        assertThat(decoder.actualReadableBytes()).isEqualTo(2);
        ch.finishAndReleaseAll();
    }

    @Test
    void absoluteGetsReplayPastTheReceivedBytes() {
        EmbeddedChannel ch = new EmbeddedChannel(new ReplayingDecoder<Void>() {
            @Override
            protected void decode(ChannelHandlerContext ctx, ReplayingDecoderBuffer in, List<Object> out) {
                int last = in.getUnsignedByte(in.readerIndex() + 3);
                in.skipBytes(4);
                out.add(last);
            }
        });
        ch.writeInbound(buf("abc"));
        assertThat(ch.inboundMessages()).isEmpty();
        ch.writeInbound(buf("d"));
        assertThat(ch.<Object>readInbound()).isEqualTo((int) 'd');
        ch.finish();
    }
}
