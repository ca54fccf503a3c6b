package io.weir.handler.codec;

import static io.weir.handler.codec.Inbound.ascii;
import static io.weir.handler.codec.Inbound.buf;
import static io.weir.handler.codec.Inbound.drain;
import static io.weir.handler.codec.Inbound.feed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

class FixedLengthFrameDecoderTest {

    @Test
    void framesComeOutTheSameByteByByteAndAllAtOnce() {
        for (int chunk : new int[] {1, 2, 4, 0}) {
            EmbeddedChannel ch = new EmbeddedChannel(new FixedLengthFrameDecoder(3));
            assertThat(feed(ch, ascii("ABCDEFG"), chunk)).as("chunk %d", chunk).containsExactly("ABC", "DEF");
            assertThat(ch.finish()).isFalse();
        }
    }

    @Test
    void anIncompleteFrameAtTheEndIsDroppedAndReleased() {
        EmbeddedChannel ch = new EmbeddedChannel(new FixedLengthFrameDecoder(4));
        ByteBuf in = buf("ab");
        ch.writeInbound(in);
        assertThat(ch.finish()).isFalse();
        assertThat(drain(ch)).isEmpty();
        assertThat(in.refCnt()).isZero();
    }

    @Test
    void frameLengthMustBePositive() {
        assertThatThrownBy(() -> new FixedLengthFrameDecoder(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("frameLength: -1");
    }
}
