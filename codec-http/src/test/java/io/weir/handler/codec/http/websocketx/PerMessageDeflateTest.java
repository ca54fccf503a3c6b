package io.weir.handler.codec.http.websocketx;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PerMessageDeflateTest {

    @ParameterizedTest(name = "offer [{0}] -> [{1}]")
    @CsvSource(delimiter = '|', nullValues = "NONE", value = {
            "permessage-deflate|permessage-deflate",
            "permessage-deflate; client_max_window_bits|permessage-deflate",
            "permessage-deflate; client_max_window_bits=10|permessage-deflate",
            "permessage-deflate; server_no_context_takeover|permessage-deflate; server_no_context_takeover",
            "permessage-deflate; client_no_context_takeover|permessage-deflate; client_no_context_takeover",
            "permessage-deflate; server_max_window_bits=15|permessage-deflate; server_max_window_bits=15",
            "permessage-deflate; server_max_window_bits=10|NONE",
            "permessage-deflate; server_max_window_bits=10, permessage-deflate|permessage-deflate",
            "permessage-deflate; server_max_window_bits=\"15\"|permessage-deflate; server_max_window_bits=15",
            "permessage-deflate; client_max_window_bits=7|NONE",
            "permessage-deflate; client_max_window_bits=16|NONE",
            "permessage-deflate; unknown_param|NONE",
            "permessage-deflate; server_no_context_takeover; server_no_context_takeover|NONE",
            "permessage-deflate; server_no_context_takeover=1|NONE",
            "x-webkit-deflate-frame|NONE",
            "foo, permessage-deflate|permessage-deflate",
            "permessage-deflate; ;|NONE"})
    void serverNegotiation(String offer, String answer) {
        PerMessageDeflate agreed = PerMessageDeflate.acceptOffer(List.of(offer), new PerMessageDeflateConfig(),
                new WebSocketConfig());
        assertThat(agreed == null ? null : agreed.response()).isEqualTo(answer);
    }

    @Test
    void serverMayAskForClientNoContextTakeover() {
        PerMessageDeflate agreed = PerMessageDeflate.acceptOffer(List.of("permessage-deflate"),
                new PerMessageDeflateConfig().setClientNoContextTakeover(true), new WebSocketConfig());
        assertThat(agreed.response()).isEqualTo("permessage-deflate; client_no_context_takeover");
    }

    @ParameterizedTest(name = "answer [{0}] refused")
    @CsvSource(delimiter = '|', value = {
            "permessage-deflate; client_max_window_bits=10",
            "permessage-deflate; bogus",
            "permessage-deflate, permessage-deflate",
            "x-webkit-deflate-frame",
            "permessage-deflate; server_max_window_bits=20"})
    void clientRefusesAnswersItCannotHonour(String answer) {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> PerMessageDeflate.acceptResponse(List.of(answer),
                new PerMessageDeflateConfig(), new WebSocketConfig())).isInstanceOf(WebSocketHandshakeException.class);
    }

    @Test
    void compressedEchoRoundTripsTextAndBinaryAndFragments() {
        WebSocketPeers p = new WebSocketPeers(
                new WebSocketServerProtocolHandler("/ws").compression(new PerMessageDeflateConfig()),
                WebSocketPeers.handshaker(new PerMessageDeflateConfig(), List.of()), true);
        p.pump();
        assertThat(p.clientHandler.handshaker().extensions()).isEqualTo("permessage-deflate");
        String text = "compress me, compress me, compress me, compress me ✓".repeat(20);
        byte[] binary = new byte[100_000];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) (i % 251);
        }
        for (int round = 0; round < 3; round++) {
            p.client.writeAndFlush(new TextWebSocketFrame(text));
            p.client.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(binary)));
            p.client.writeAndFlush(new TextWebSocketFrame(false, 0, Unpooled.copiedBuffer("frag-", StandardCharsets.UTF_8)));
            p.client.writeAndFlush(new ContinuationWebSocketFrame(true, 0, Unpooled.EMPTY_BUFFER));
            p.client.writeAndFlush(new TextWebSocketFrame(""));
            p.pump();
            TextWebSocketFrame t = (TextWebSocketFrame) p.clientApp.messages.poll();
            BinaryWebSocketFrame b = (BinaryWebSocketFrame) p.clientApp.messages.poll();
            TextWebSocketFrame f1 = (TextWebSocketFrame) p.clientApp.messages.poll();
            ContinuationWebSocketFrame f2 = (ContinuationWebSocketFrame) p.clientApp.messages.poll();
            TextWebSocketFrame empty = (TextWebSocketFrame) p.clientApp.messages.poll();
            assertThat(t.text()).isEqualTo(text);
            assertThat(t.rsv()).isZero();
            assertThat(ByteBufUtil.getBytes(b.content())).isEqualTo(binary);
            assertThat(f1.text()).isEqualTo("frag-");
            assertThat(f2.content().readableBytes()).isZero();
            assertThat(empty.text()).isEmpty();
            t.release();
            b.release();
            f1.release();
            f2.release();
            empty.release();
        }
        p.finish();
    }

    @Test
    void rsv1IsSetOnTheFirstFrameOnlyAndTheTailIsStripped() {
        EmbeddedChannel ch = new EmbeddedChannel(new PerMessageDeflateEncoder(6, false));
        ch.writeOutbound(new TextWebSocketFrame(false, 0, Unpooled.copiedBuffer("Hel", StandardCharsets.UTF_8)));
        ch.writeOutbound(new ContinuationWebSocketFrame(true, 0, Unpooled.copiedBuffer("lo", StandardCharsets.UTF_8)));
        WebSocketFrame first = ch.readOutbound();
        WebSocketFrame last = ch.readOutbound();
        assertThat(first.rsv()).isEqualTo(WebSocketFrame.RSV1);
        assertThat(last.rsv()).isZero();
        ByteBuf c = last.content();
        assertThat(c.readableBytes() < 4 || c.getInt(c.writerIndex() - 4) != 0x0000FFFF).isTrue();
        first.release();
        last.release();
        ch.finish();
    }

    @Test
    void rfc7692Section7211HelloDecodes() {
        // RFC 7692 §7.2.3.1: "Hello" compressed, without the tail.
        EmbeddedChannel ch = new EmbeddedChannel(new PerMessageDeflateDecoder(1024));
        ch.writeInbound(new TextWebSocketFrame(true, WebSocketFrame.RSV1,
                Unpooled.wrappedBuffer(WireFrames.hex("f2 48 cd c9 c9 07 00"))));
        TextWebSocketFrame t = ch.readInbound();
        assertThat(t.text()).isEqualTo("Hello");
        t.release();
        // §7.2.3.2: the same message again, with the sliding window (context takeover) referring back.
        ch.writeInbound(new TextWebSocketFrame(true, WebSocketFrame.RSV1,
                Unpooled.wrappedBuffer(WireFrames.hex("f2 00 11 00 00"))));
        TextWebSocketFrame again = ch.readInbound();
        assertThat(again.text()).isEqualTo("Hello");
        again.release();
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void deflateBombIsRefusedBeforeMemoryGrows() {
        // 64 MiB of zeros deflate to about 64 KiB; the limit is 1 MiB.
        Deflater d = new Deflater(9, true);
        byte[] zeros = new byte[1 << 20];
        ByteBuf bomb = Unpooled.buffer();
        byte[] out = new byte[65536];
        for (int i = 0; i < 64; i++) {
            d.setInput(zeros);
            int n;
            while ((n = d.deflate(out, 0, out.length, Deflater.SYNC_FLUSH)) > 0) {
                bomb.writeBytes(out, 0, n);
                if (n < out.length) {
                    break;
                }
            }
        }
        d.end();
        WebSocketFrameCodecTest.Sink sink = new WebSocketFrameCodecTest.Sink();
        EmbeddedChannel ch = new EmbeddedChannel(new PerMessageDeflateDecoder(1 << 20), sink);
        ch.writeInbound(new BinaryWebSocketFrame(true, WebSocketFrame.RSV1, bomb));
        assertThat((Object) ch.readInbound()).isNull();
        assertThat(sink.errors).singleElement().isInstanceOfSatisfying(WebSocketTooBigException.class, e -> {
            assertThat(e.closeStatus()).isEqualTo(1009);
            // Stopped one byte past the limit, not after inflating all 64 MiB.
            assertThat(e.seen()).isEqualTo((1 << 20) + 1);
        });
        CloseWebSocketFrame close = ch.readOutbound();
        assertThat(close.statusCode()).isEqualTo(1009);
        assertThat(close.reasonText()).isEqualTo("inflated message " + ((1 << 20) + 1) + " over limit " + (1 << 20));
        close.release();
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    @Test
    void compressedInvalidUtf8IsRejectedWith1007() {
        ByteBuf compressed = deflate(WireFrames.hex("ce ba e1 bd b9 cf 83 ce bc ce b5 ed a0 80 65 64 69 74 65 64"));
        WebSocketFrameCodecTest.Sink sink = new WebSocketFrameCodecTest.Sink();
        EmbeddedChannel ch = new EmbeddedChannel(new PerMessageDeflateDecoder(1 << 20), sink);
        ch.writeInbound(new TextWebSocketFrame(true, WebSocketFrame.RSV1, compressed));
        assertThat(sink.errors).singleElement().isInstanceOfSatisfying(WebSocketProtocolException.class,
                e -> assertThat(e.closeStatus()).isEqualTo(1007));
        assertClosedWithReason(ch, 1007, "text message is not UTF-8");
    }

    @Test
    void corruptCompressedDataIsRejectedWith1007() {
        WebSocketFrameCodecTest.Sink sink = new WebSocketFrameCodecTest.Sink();
        EmbeddedChannel ch = new EmbeddedChannel(new PerMessageDeflateDecoder(1 << 20), sink);
        ch.writeInbound(new BinaryWebSocketFrame(true, WebSocketFrame.RSV1,
                Unpooled.wrappedBuffer(WireFrames.hex("ff ff ff ff ff"))));
        assertThat(sink.errors).singleElement().isInstanceOfSatisfying(WebSocketProtocolException.class,
                e -> assertThat(e.closeStatus()).isEqualTo(1007));
        assertClosedWithReason(ch, 1007, "corrupt compressed data");
    }

    /** The close frame sent tells the peer why in words, not only by its code. */
    private static void assertClosedWithReason(EmbeddedChannel ch, int status, String reason) {
        CloseWebSocketFrame close = ch.readOutbound();
        try {
            assertThat(close.statusCode()).isEqualTo(status);
            assertThat(close.reasonText()).isEqualTo(reason);
        } finally {
            close.release();
        }
        ch.finishAndReleaseAll();
    }

    @Test
    void contextTakeoverShrinksARepeatedMessageAndNoContextTakeoverDoesNot() {
        int[] sizes = new int[4];
        int k = 0;
        for (boolean noContext : new boolean[] {false, true}) {
            EmbeddedChannel ch = new EmbeddedChannel(new PerMessageDeflateEncoder(6, noContext));
            for (int i = 0; i < 2; i++) {
                ch.writeOutbound(new TextWebSocketFrame("a message that repeats itself exactly, twice over"));
                WebSocketFrame f = ch.readOutbound();
                sizes[k++] = f.content().readableBytes();
                f.release();
            }
            ch.finish();
        }
        assertThat(sizes[1]).isLessThan(sizes[0]);
        assertThat(sizes[3]).isEqualTo(sizes[2]);
    }

    private static ByteBuf deflate(byte[] data) {
        Deflater d = new Deflater(6, true);
        d.setInput(data);
        byte[] out = new byte[data.length + 64];
        int n = d.deflate(out, 0, out.length, Deflater.SYNC_FLUSH);
        d.end();
        return Unpooled.wrappedBuffer(out, 0, n - 4);
    }
}
