package io.weir.handler.codec.bytes;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

class ByteArrayCodecTest {

    @Test
    void decodesBuffersIntoArraysAndReleasesThem() {
        EmbeddedChannel ch = new EmbeddedChannel(new ByteArrayDecoder());
        ByteBuf in = Unpooled.copiedBuffer(new byte[] {1, 2, 3});
        in.readByte();
        ch.writeInbound(in);
        assertThat((byte[]) ch.readInbound()).containsExactly(2, 3);
        assertThat(in.refCnt()).isZero();
        ch.finish();
    }

    @Test
    void encodesArraysWithoutCopyingAndPassesOthersThrough() {
        EmbeddedChannel ch = new EmbeddedChannel(new ByteArrayEncoder());
        byte[] array = {9, 8, 7};
        ch.writeOutbound(array, "other");
        ByteBuf out = ch.readOutbound();
        assertThat(out.hasArray() && out.array() == array).isTrue();
        assertThat(out.readableBytes()).isEqualTo(3);
        out.release();
        assertThat(ch.<Object>readOutbound()).isEqualTo("other");
        ch.finish();
    }
}
