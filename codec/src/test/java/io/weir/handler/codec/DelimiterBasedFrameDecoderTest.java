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

class DelimiterBasedFrameDecoderTest {

    @Test
    void framesComeOutTheSameByteByByteAndAllAtOnce() {
        byte[] input = ascii("alpha||beta##gamma||||delta");
        for (int chunk : new int[] {1, 2, 3, 0}) {
            EmbeddedChannel ch = new EmbeddedChannel(Inbound.delimited(64, true, true, "||", "##"));
            assertThat(feed(ch, input, chunk)).as("chunk %d", chunk).containsExactly("alpha", "beta", "gamma", "");
            assertThat(ch.finish()).isFalse();
        }
    }

    @Test
    void theDelimiterGivingTheShortestFrameWins() {
        EmbeddedChannel ch = new EmbeddedChannel(Inbound.delimited(64, true, true, "B", "AB"));
        assertThat(feed(ch, ascii("xxABy B"), 0)).containsExactly("xx", "y ");
        ch.finish();
    }

    @Test
    void delimitersAreKeptWhenNotStripped() {
        EmbeddedChannel ch = new EmbeddedChannel(Inbound.delimited(64, false, true, "\0"));
        assertThat(feed(ch, ascii("a\0b\0"), 1)).containsExactly("a\0", "b\0");
        ch.finish();
    }

    @Test
    void lineDelimitersTakeTheLineBasedPathWithTheSameResult() {
        byte[] input = ascii("one\r\ntwo\nthree");
        for (int chunk : new int[] {1, 0}) {
            EmbeddedChannel ch = new EmbeddedChannel(Inbound.delimited(64, true, true, "\r\n", "\n"));
            assertThat(feed(ch, input, chunk)).containsExactly("one", "two");
            ch.finish();
        }
    }

    @Test
    void exactlyTheLineDelimitersSelectTheLineBasedPath() {
        ByteBuf[] lines = Delimiters.lineDelimiter();
        DelimiterBasedFrameDecoder lineBased = new DelimiterBasedFrameDecoder(64, lines);
        for (ByteBuf b : lines) {
            b.release();
        }
        assertThat(lineBased.usesLineBasedDecoder()).isTrue();
        assertThat(Inbound.delimited(64, true, true, "\n", "\r\n").usesLineBasedDecoder()).isTrue();
        assertThat(Inbound.delimited(64, true, true, "\n").usesLineBasedDecoder()).isFalse();
        assertThat(Inbound.delimited(64, true, true, "\r\n", "\n", "\0").usesLineBasedDecoder()).isFalse();
        ByteBuf[] nul = Delimiters.nulDelimiter();
        DelimiterBasedFrameDecoder nulBased = new DelimiterBasedFrameDecoder(64, nul);
        nul[0].release();
        EmbeddedChannel ch = new EmbeddedChannel(nulBased);
        assertThat(feed(ch, ascii("a\0b\0"), 1)).containsExactly("a", "b");
        ch.finish();
    }

    @Test
    void tooLongFrameFailsFastAndDecodingResumesAfterItsDelimiter() {
        DelimiterBasedFrameDecoder decoder = Inbound.delimited(4, true, true, "##");
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        assertThatThrownBy(() -> ch.writeInbound(buf("0123456789"))).isInstanceOf(TooLongFrameException.class)
                .hasMessageContaining("maxFrameLength: 4");
        ch.writeInbound(buf("0123456789"));
        assertThat(decoder.actualReadableBytes()).as("at most a delimiter's start is kept").isLessThanOrEqualTo(1);
        // The delimiter straddles two reads; it must still be found.
        ch.writeInbound(buf("xx#"));
        ch.writeInbound(buf("#ok##"));
        assertThat(drain(ch)).containsExactly("ok");
        ch.finish();
    }

    @Test
    void tooLongFrameWithoutFailFastIsReportedAtItsDelimiter() {
        EmbeddedChannel ch = new EmbeddedChannel(Inbound.delimited(4, true, false, "\0"));
        ch.writeInbound(buf("0123456789"));
        assertThatThrownBy(() -> ch.writeInbound(buf("01\0ok\0"))).isInstanceOf(TooLongFrameException.class)
                .hasMessageContaining("12");
        ch.writeInbound(buf("go\0"));
        assertThat(drain(ch)).containsExactly("ok", "go");
        ch.finish();
    }

    @Test
    void tooLongCompleteFrameIsSkippedWithAnError() {
        EmbeddedChannel ch = new EmbeddedChannel(Inbound.delimited(2, true, true, ";"));
        assertThatThrownBy(() -> ch.writeInbound(buf("long;"))).isInstanceOf(TooLongFrameException.class);
        ch.writeInbound(buf("ok;"));
        assertThat(drain(ch)).containsExactly("ok");
        ch.finish();
    }

    @Test
    void aFrameOfExactlyMaxLengthIsAcceptedWhileItsDelimiterIsHalfReceived() {
        EmbeddedChannel ch = new EmbeddedChannel(Inbound.delimited(4, true, true, "##"));
        ch.writeInbound(buf("abcd#"));
        ch.writeInbound(buf("#"));
        assertThat(drain(ch)).containsExactly("abcd");
        ch.finish();
    }

    @Test
    void theCallerKeepsItsDelimiterBuffers() {
        ByteBuf delimiter = buf(";");
        EmbeddedChannel ch = new EmbeddedChannel(new DelimiterBasedFrameDecoder(8, delimiter));
        delimiter.release();
        assertThat(feed(ch, ascii("a;b;"), 0)).containsExactly("a", "b");
        ch.finish();
    }

    @Test
    void badArgumentsAreRefused() {
        ByteBuf empty = buf("");
        assertThatThrownBy(() -> new DelimiterBasedFrameDecoder(8, empty)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delimiters[0] is empty");
        empty.release();
        assertThatThrownBy(() -> new DelimiterBasedFrameDecoder(8)).isInstanceOf(IllegalArgumentException.class);
        ByteBuf d = buf(";");
        assertThatThrownBy(() -> new DelimiterBasedFrameDecoder(0, d)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxFrameLength: 0");
        d.release();
    }
}
