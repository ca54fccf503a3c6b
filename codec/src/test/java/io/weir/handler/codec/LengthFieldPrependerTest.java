package io.weir.handler.codec;

import static io.weir.handler.codec.Inbound.buf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFuture;
import io.weir.channel.embedded.EmbeddedChannel;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class LengthFieldPrependerTest {

    private static ByteBuf readAll(EmbeddedChannel ch) {
        ByteBuf all = Unpooled.buffer();
        for (Object m; (m = ch.readOutbound()) != null; ) {
            ByteBuf b = (ByteBuf) m;
            all.writeBytes(b);
            b.release();
        }
        return all;
    }

    @Test
    void prependsTheContentLengthInEveryWidth() {
        for (int width : new int[] {1, 2, 3, 4, 8}) {
            EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldPrepender(width));
            ch.writeOutbound(buf("hello"));
            ByteBuf out = readAll(ch);
            assertThat(out.readableBytes()).isEqualTo(width + 5);
            long length = switch (width) {
                case 1 -> out.getUnsignedByte(0);
                case 2 -> out.getUnsignedShort(0);
                case 3 -> out.getUnsignedMedium(0);
                case 4 -> out.getUnsignedInt(0);
                default -> out.getLong(0);
            };
            assertThat(length).as("width %d", width).isEqualTo(5);
            out.release();
            ch.finish();
        }
    }

    @Test
    void littleEndianIncludingTheFieldAndAdjusted() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldPrepender(ByteOrder.LITTLE_ENDIAN, 2, 10, true));
        ch.writeOutbound(buf("abc"));
        ByteBuf out = readAll(ch);
        assertThat(out.getUnsignedShortLE(0)).isEqualTo(3 + 2 + 10);
        out.release();
        ch.finish();
    }

    @Test
    void roundTripsThroughTheLengthFieldDecoder() {
        EmbeddedChannel encoder = new EmbeddedChannel(new LengthFieldPrepender(2));
        EmbeddedChannel decoder = new EmbeddedChannel(new LengthFieldBasedFrameDecoder(1024, 0, 2, 0, 2));
        encoder.writeOutbound(buf("first"), buf(""), buf("third"));
        ByteBuf wire = readAll(encoder);
        decoder.writeInbound(wire);
        assertThat(Inbound.drain(decoder)).containsExactly("first", "", "third");
        encoder.finish();
        decoder.finish();
    }

    @Test
    void aLengthThatDoesNotFitFailsTheWriteAndReleasesTheMessage() {
        EmbeddedChannel ch = new EmbeddedChannel(new LengthFieldPrepender(1));
        ByteBuf big = Unpooled.buffer().writeZero(256);
        ChannelFuture f = ch.writeAndFlush(big);
        assertThat(f.cause()).isInstanceOf(EncoderException.class).hasRootCauseMessage(
                "length does not fit into a 1-byte field: 256");
        assertThat(big.refCnt()).isZero();
        assertThat(ch.outboundMessages()).isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void invalidWidthIsRefused() {
        assertThatThrownBy(() -> new LengthFieldPrepender(5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lengthFieldLength: 5");
    }
}
