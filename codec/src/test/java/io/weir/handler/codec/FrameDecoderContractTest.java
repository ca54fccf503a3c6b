package io.weir.handler.codec;

import static io.weir.handler.codec.Inbound.ascii;
import static io.weir.handler.codec.Inbound.buf;
import static io.weir.handler.codec.Inbound.drain;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInputShutdownEvent;
import io.weir.channel.embedded.EmbeddedChannel;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every frame decoder owes its users, checked once for all of them: the same frames whatever the
 * fragmentation and cumulator, a partial frame at the end of input (close or input shutdown) dropped and
 * released, and the partial frame handed on when the decoder is removed.
 */
class FrameDecoderContractTest {

    /** Input holding the frames "abc" and "de", then the start of a third frame. */
    record Case(String name, Supplier<ByteToMessageDecoder> decoder, byte[] input, String partialTail) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final class LengthPrefixedReplayingDecoder extends ReplayingDecoder<Void> {
        @Override
        protected void decode(ChannelHandlerContext ctx, ReplayingDecoderBuffer in, List<Object> out) {
            int length = in.readUnsignedByte();
            out.add(in.readRetainedSlice(length));
        }
    }

    static Stream<Arguments> decoders() {
        return Stream.of(
                new Case("length field", () -> new LengthFieldBasedFrameDecoder(64, 0, 1, 0, 1),
                        ascii("\u0003abc\u0002de\u0004xy"), "\u0004xy"),
                new Case("line", () -> new LineBasedFrameDecoder(64), ascii("abc\r\nde\nxy"), "xy"),
                new Case("delimiter", () -> Inbound.delimited(64, true, true, "%%"), ascii("abc%%de%%xy%"),
                        "xy%"),
                new Case("line delimiters", () -> Inbound.delimited(64, true, true, "\n", "\r\n"),
                        ascii("abc\nde\r\nxy\r"), "xy\r"),
                new Case("fixed length", () -> new FixedLengthFrameDecoder(3), ascii("abcde_xy"), "xy"),
                new Case("replaying", LengthPrefixedReplayingDecoder::new, ascii("\u0003abc\u0002de\u0004xy"),
                        "\u0004xy"))
                .map(Arguments::of);
    }

    private static List<String> expectedFrames(Case c) {
        return c.name.equals("fixed length") ? List.of("abc", "de_") : List.of("abc", "de");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decoders")
    void framesAreTheSameForEveryFragmentationAndCumulator(Case c) {
        for (ByteToMessageDecoder.Cumulator cumulator : new ByteToMessageDecoder.Cumulator[] {
                ByteToMessageDecoder.MERGE_CUMULATOR, ByteToMessageDecoder.COMPOSITE_CUMULATOR}) {
            for (int chunk : new int[] {1, 2, 3, 0}) {
                ByteToMessageDecoder decoder = c.decoder.get();
                decoder.setCumulator(cumulator);
                EmbeddedChannel ch = new EmbeddedChannel(decoder);
                assertThat(Inbound.feed(ch, c.input, chunk)).as("chunk %d", chunk).isEqualTo(expectedFrames(c));
                assertThat(ch.finish()).isFalse();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decoders")
    void aPartialFrameAtCloseIsDroppedAndReleased(Case c) {
        EmbeddedChannel ch = new EmbeddedChannel(c.decoder.get());
        ByteBuf in = buf(c.input);
        ch.writeInbound(in);
        assertThat(drain(ch)).isEqualTo(expectedFrames(c));
        assertThat(ch.finish()).isFalse();
        assertThat(in.refCnt()).isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decoders")
    void aPartialFrameAtInputShutdownIsDroppedAndReleasedWhileTheChannelStaysOpen(Case c) {
        EmbeddedChannel ch = new EmbeddedChannel(c.decoder.get());
        ByteBuf in = buf(c.input);
        ch.writeInbound(in);
        assertThat(drain(ch)).isEqualTo(expectedFrames(c));
        ch.pipeline().fireChannelShutdown(ChannelInputShutdownEvent.INSTANCE);
        assertThat(ch.isOpen()).isTrue();
        assertThat(in.refCnt()).isZero();
        assertThat(ch.finish()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("decoders")
    void aPartialFrameIsHandedOnWhenTheDecoderIsRemoved(Case c) {
        ByteToMessageDecoder decoder = c.decoder.get();
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(buf(c.input));
        assertThat(drain(ch)).isEqualTo(expectedFrames(c));
        ch.pipeline().remove(decoder);
        assertThat(drain(ch)).containsExactly(c.partialTail);
        assertThat(ch.finish()).isFalse();
    }
}
