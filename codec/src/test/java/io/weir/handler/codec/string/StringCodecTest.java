package io.weir.handler.codec.string;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.LineBasedFrameDecoder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StringCodecTest {

    private static String take(EmbeddedChannel ch) {
        ByteBuf b = ch.readOutbound();
        try {
            return b.toString(StandardCharsets.UTF_8);
        } finally {
            b.release();
        }
    }

    @Test
    void decodesFramesAsTextAndReleasesThem() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineBasedFrameDecoder(64), new StringDecoder(StandardCharsets.UTF_8));
        ByteBuf in = Unpooled.copiedBuffer("grüße\nzweite\n", StandardCharsets.UTF_8);
        ch.writeInbound(in);
        assertThat(ch.<Object>readInbound()).isEqualTo("grüße");
        assertThat(ch.<Object>readInbound()).isEqualTo("zweite");
        assertThat(in.refCnt()).isZero();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void encodesCharSequencesAndPassesOtherMessagesThrough() {
        EmbeddedChannel ch = new EmbeddedChannel(new StringEncoder(StandardCharsets.UTF_8));
        ch.writeOutbound("żółw", new StringBuilder("sb"), "", 12);
        assertThat(take(ch)).isEqualTo("żółw");
        assertThat(take(ch)).isEqualTo("sb");
        assertThat(take(ch)).isEmpty();
        assertThat(ch.<Object>readOutbound()).isEqualTo(12);
        ch.finish();
    }

    @Test
    void lineEncoderAppendsTheSeparator() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineEncoder(LineSeparator.WINDOWS, StandardCharsets.UTF_8));
        ch.writeOutbound("HELO example.org", "");
        assertThat(take(ch)).isEqualTo("HELO example.org\r\n");
        assertThat(take(ch)).isEqualTo("\r\n");
        ch.finish();
    }

    @Test
    void oneDecoderInstanceServesSeveralChannels() {
        StringDecoder shared = new StringDecoder(StandardCharsets.US_ASCII);
        EmbeddedChannel a = new EmbeddedChannel(shared);
        EmbeddedChannel b = new EmbeddedChannel(shared);
        a.writeInbound(Unpooled.copiedBuffer("a", StandardCharsets.US_ASCII));
        b.writeInbound(Unpooled.copiedBuffer("b", StandardCharsets.US_ASCII));
        assertThat(a.<Object>readInbound()).isEqualTo("a");
        assertThat(b.<Object>readInbound()).isEqualTo("b");
        a.finish();
        b.finish();
    }
}
