package io.weir.handler.codec;

import static io.weir.handler.codec.Inbound.ascii;
import static io.weir.handler.codec.Inbound.buf;
import static io.weir.handler.codec.Inbound.drain;
import static io.weir.handler.codec.Inbound.feed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.channel.embedded.EmbeddedChannel;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineBasedFrameDecoderTest {

    @Test
    void linesComeOutTheSameByteByByteAndAllAtOnce() {
        byte[] input = ascii("first\r\nsecond\n\nfourth\r\n\r\nlast without end");
        for (int chunk : new int[] {1, 2, 3, 5, 0}) {
            EmbeddedChannel ch = new EmbeddedChannel(new LineBasedFrameDecoder(64));
            assertThat(feed(ch, input, chunk)).as("chunk %d", chunk)
                    .containsExactly("first", "second", "", "fourth", "");
            assertThat(ch.finish()).isFalse();
        }
    }

    @Test
    void delimitersAreKeptWhenNotStripped() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineBasedFrameDecoder(64, false, false));
        assertThat(feed(ch, ascii("a\r\nb\n"), 1)).containsExactly("a\r\n", "b\n");
        ch.finish();
    }

    @Test
    void aLoneCarriageReturnIsPartOfTheLine() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineBasedFrameDecoder(64));
        assertThat(feed(ch, ascii("a\rb\n"), 1)).containsExactly("a\rb");
        ch.finish();
    }

    @Test
    void aLineOfExactlyMaxLengthIsAcceptedEvenWhenItsCarriageReturnArrivesAlone() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineBasedFrameDecoder(4));
        ch.writeInbound(buf("abcd\r"));
        ch.writeInbound(buf("\n"));
        assertThat(drain(ch)).containsExactly("abcd");
        ch.finish();
    }

    @Test
    void tooLongLineWithoutFailFastIsReportedAtItsEndAndDecodingResumes() {
        LineBasedFrameDecoder decoder = new LineBasedFrameDecoder(8, true, false);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ch.writeInbound(buf("0123456789"));
        ch.writeInbound(buf("0123456789"));
        assertThat(decoder.actualReadableBytes()).as("discarded, not accumulated").isZero();
        assertThatThrownBy(() -> ch.writeInbound(buf("xy\r\nnext\n"))).isInstanceOf(TooLongFrameException.class)
                .hasMessageContaining("22").hasMessageContaining("maxLength: 8");
        ch.writeInbound(buf("more\n"));
        assertThat(drain(ch)).containsExactly("next", "more");
        ch.finish();
    }

    @Test
    void tooLongLineFailsFastAndDecodingResumesAfterIt() {
        LineBasedFrameDecoder decoder = new LineBasedFrameDecoder(8, true, true);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        assertThatThrownBy(() -> ch.writeInbound(buf("0123456789"))).isInstanceOf(TooLongFrameException.class)
                .hasMessageContaining("over 10");
        ch.writeInbound(buf("0123456789"));
        assertThat(decoder.actualReadableBytes()).isZero();
        ch.writeInbound(buf("end\nok\n"));
        assertThat(drain(ch)).containsExactly("ok");
        ch.finish();
    }

    @Test
    void tooLongCompleteLineIsSkippedWithAnError() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineBasedFrameDecoder(3));
        assertThatThrownBy(() -> ch.writeInbound(buf("toolong\r\n"))).isInstanceOf(TooLongFrameException.class);
        ch.writeInbound(buf("ok\n"));
        assertThat(drain(ch)).containsExactly("ok");
        ch.finish();
    }

    @Test
    void aLineSplitAcrossManyReadsIsScannedOnlyOnceAndStillFound() {
        EmbeddedChannel ch = new EmbeddedChannel(new LineBasedFrameDecoder(10_000));
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            ch.writeInbound(buf("0123456789"));
            expected.append("0123456789");
        }
        ch.writeInbound(buf("\n"));
        List<String> lines = drain(ch);
        assertThat(lines).containsExactly(expected.toString());
        ch.finish();
    }

    @Test
    void leftoverPartialLineIsHandedOnWhenRemoved() {
        LineBasedFrameDecoder decoder = new LineBasedFrameDecoder(64);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        ByteBuf in = buf("done\npartial");
        ch.writeInbound(in);
        ch.pipeline().remove(decoder);
        assertThat(drain(ch)).containsExactly("done", "partial");
        ch.finish();
    }

    @Test
    void maxLengthMustBePositive() {
        assertThatThrownBy(() -> new LineBasedFrameDecoder(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxLength: 0");
    }
}
