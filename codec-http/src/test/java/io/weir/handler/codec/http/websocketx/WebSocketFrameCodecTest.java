package io.weir.handler.codec.http.websocketx;

import static io.weir.handler.codec.http.websocketx.WireFrames.client;
import static io.weir.handler.codec.http.websocketx.WireFrames.concat;
import static io.weir.handler.codec.http.websocketx.WireFrames.hex;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WebSocketFrameCodecTest {

    /** Collects frames and the protocol exceptions the decoder fires. */
    static final class Sink implements ChannelHandler {
        final List<Throwable> errors = new ArrayList<>();

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            errors.add(cause);
        }
    }

    static EmbeddedChannel serverChannel(WebSocketConfig config, Sink sink) {
        return new EmbeddedChannel(new WebSocketFrameEncoder(false), new WebSocketFrameDecoder(true, config), sink);
    }

    static EmbeddedChannel clientChannel(WebSocketConfig config, Sink sink) {
        return new EmbeddedChannel(new WebSocketFrameEncoder(true), new WebSocketFrameDecoder(false, config), sink);
    }

    // ------------------------------------------------------------------ RFC 6455 §5.7 examples

    @Test
    void rfc6455Section57ExamplesDecode() {
        Sink sink = new Sink();
        EmbeddedChannel ch = clientChannel(new WebSocketConfig(), sink);
        ch.writeInbound(Unpooled.wrappedBuffer(hex("81 05 48 65 6c 6c 6f")));
        TextWebSocketFrame t = ch.readInbound();
        assertThat(t.text()).isEqualTo("Hello");
        assertThat(t.isFinalFragment()).isTrue();
        t.release();
        ch.writeInbound(Unpooled.wrappedBuffer(hex("01 03 48 65 6c 80 02 6c 6f")));
        TextWebSocketFrame first = ch.readInbound();
        ContinuationWebSocketFrame rest = ch.readInbound();
        assertThat(first.isFinalFragment()).isFalse();
        assertThat(first.text()).isEqualTo("Hel");
        assertThat(rest.content().toString(StandardCharsets.UTF_8)).isEqualTo("lo");
        assertThat(rest.isFinalFragment()).isTrue();
        first.release();
        rest.release();
        ch.writeInbound(Unpooled.wrappedBuffer(hex("89 05 48 65 6c 6c 6f")));
        PingWebSocketFrame ping = ch.readInbound();
        assertThat(ping.content().toString(StandardCharsets.UTF_8)).isEqualTo("Hello");
        ping.release();
        byte[] b256 = new byte[256];
        ch.writeInbound(Unpooled.wrappedBuffer(concat(hex("82 7e 01 00"), b256)));
        BinaryWebSocketFrame bin = ch.readInbound();
        assertThat(bin.content().readableBytes()).isEqualTo(256);
        bin.release();
        ch.writeInbound(Unpooled.wrappedBuffer(concat(hex("82 7f 00 00 00 00 00 01 00 00"), new byte[65536])));
        BinaryWebSocketFrame big = ch.readInbound();
        assertThat(big.content().readableBytes()).isEqualTo(65536);
        big.release();
        assertThat(sink.errors).isEmpty();
        assertThat(ch.finishAndReleaseAll()).isFalse();

        Sink s2 = new Sink();
        EmbeddedChannel srv = serverChannel(new WebSocketConfig(), s2);
        // The masked "Hello" and masked pong of §5.7.
        srv.writeInbound(Unpooled.wrappedBuffer(hex("81 85 37 fa 21 3d 7f 9f 4d 51 58 8a 85 37 fa 21 3d 7f 9f 4d 51 58")));
        TextWebSocketFrame hello = srv.readInbound();
        PongWebSocketFrame pong = srv.readInbound();
        assertThat(hello.text()).isEqualTo("Hello");
        assertThat(pong.content().toString(StandardCharsets.UTF_8)).isEqualTo("Hello");
        hello.release();
        pong.release();
        assertThat(srv.finishAndReleaseAll()).isFalse();
    }

    @Test
    void serverEncoderWritesTheRfcBytes() {
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocketFrameEncoder(false));
        ch.writeOutbound(new TextWebSocketFrame("Hello"));
        assertThat(drainOutbound(ch)).isEqualTo(hex("81 05 48 65 6c 6c 6f"));
        ch.writeOutbound(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[256])));
        assertThat(drainOutbound(ch)).startsWith(hex("82 7e 01 00")).hasSize(260);
        ch.writeOutbound(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[65536])));
        assertThat(drainOutbound(ch)).startsWith(hex("82 7f 00 00 00 00 00 01 00 00")).hasSize(65546);
        ch.writeOutbound(new CloseWebSocketFrame(1000, "bye"));
        assertThat(drainOutbound(ch)).isEqualTo(hex("88 05 03 e8 62 79 65"));
        assertThat(ch.finish()).isFalse();
    }

    @Test
    void clientEncoderMasksAndServerDecoderUnmasksEverySize() {
        for (int size : new int[] {0, 1, 7, 8, 9, 125, 126, 1023, 1024, 1025, 65535, 65536, 100_000}) {
            EmbeddedChannel c = new EmbeddedChannel(new WebSocketFrameEncoder(true));
            byte[] data = new byte[size];
            for (int i = 0; i < size; i++) {
                data[i] = (byte) (i * 31 + 7);
            }
            c.writeOutbound(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(data)));
            byte[] wire = drainOutbound(c);
            assertThat(wire[1] & 0x80).isEqualTo(0x80);
            Sink sink = new Sink();
            EmbeddedChannel s = serverChannel(new WebSocketConfig(), sink);
            // Delivered in 3 pieces, so unmasking in place resumes mid-payload at every alignment.
            int a = wire.length / 3;
            int b = 2 * wire.length / 3;
            s.writeInbound(Unpooled.copiedBuffer(wire, 0, a));
            s.writeInbound(Unpooled.copiedBuffer(wire, a, b - a));
            s.writeInbound(Unpooled.copiedBuffer(wire, b, wire.length - b));
            BinaryWebSocketFrame f = s.readInbound();
            assertThat(ByteBufUtil.getBytes(f.content())).isEqualTo(data);
            f.release();
            assertThat(sink.errors).isEmpty();
            assertThat(c.finish()).isFalse();
            assertThat(s.finishAndReleaseAll()).isFalse();
        }
    }

    @Test
    void readOnlyInputIsCopiedNotWrittenTo() {
        Sink sink = new Sink();
        EmbeddedChannel s = serverChannel(new WebSocketConfig(), sink);
        byte[] wire = client(0x81, "read-only input");
        s.writeInbound(Unpooled.wrappedBuffer(wire).asReadOnly());
        TextWebSocketFrame f = s.readInbound();
        assertThat(f.text()).isEqualTo("read-only input");
        f.release();
        assertThat(s.finishAndReleaseAll()).isFalse();
    }

    @Test
    void controlFrameOver125BytesIsRefusedByTheEncoder() {
        EmbeddedChannel ch = new EmbeddedChannel(new WebSocketFrameEncoder(false));
        var f = ch.writeOneOutbound(new PingWebSocketFrame(Unpooled.wrappedBuffer(new byte[126])));
        ch.flushOutbound();
        assertThat(f.cause()).isInstanceOf(IllegalArgumentException.class);
        assertThat(ch.finish()).isFalse();
    }

    // ------------------------------------------------------------------ malformed input -> close status

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("unmasked frame from a client", WireFrames.frame(0x81, false, new byte[] {'a'}), 1002),
                Arguments.of("RSV1 without an extension", client(0xC1, "a"), 1002),
                Arguments.of("RSV2", client(0xA1, "a"), 1002),
                Arguments.of("RSV3", client(0x91, "a"), 1002),
                Arguments.of("reserved data opcode 3", client(0x83, "a"), 1002),
                Arguments.of("reserved data opcode 7", client(0x87, "a"), 1002),
                Arguments.of("reserved control opcode 0xB", client(0x8B, "a"), 1002),
                Arguments.of("reserved control opcode 0xF", client(0x8F, "a"), 1002),
                Arguments.of("fragmented ping", client(0x09, "a"), 1002),
                Arguments.of("ping of 126 bytes", client(0x89, new byte[126]), 1002),
                Arguments.of("continuation with no message", client(0x80, "a"), 1002),
                Arguments.of("new text while a message is open", concat(client(0x01, "a"), client(0x81, "b")), 1002),
                Arguments.of("new binary while a message is open", concat(client(0x02, "a"), client(0x82, "b")), 1002),
                Arguments.of("16-bit length not minimal", hex("82 fe 00 05 00 00 00 00 01 02 03 04 05"), 1002),
                Arguments.of("64-bit length not minimal", hex("82 ff 00 00 00 00 00 00 00 05 00 00 00 00"), 1002),
                Arguments.of("64-bit length with the top bit set", hex("82 ff 80 00 00 00 00 00 00 05 00 00 00 00"), 1002),
                Arguments.of("close with a 1-byte payload", client(0x88, new byte[] {3}), 1002),
                Arguments.of("close with status 999", client(0x88, WireFrames.close(999, "")), 1002),
                Arguments.of("close with status 1004", client(0x88, WireFrames.close(1004, "")), 1002),
                Arguments.of("close with status 1005", client(0x88, WireFrames.close(1005, "")), 1002),
                Arguments.of("close with status 1006", client(0x88, WireFrames.close(1006, "")), 1002),
                Arguments.of("close with status 1015", client(0x88, WireFrames.close(1015, "")), 1002),
                Arguments.of("close with status 1016", client(0x88, WireFrames.close(1016, "")), 1002),
                Arguments.of("close with status 2999", client(0x88, WireFrames.close(2999, "")), 1002),
                Arguments.of("close with status 5000", client(0x88, WireFrames.close(5000, "")), 1002),
                Arguments.of("close reason not UTF-8", client(0x88, concat(WireFrames.close(1000, ""), hex("ff"))), 1007),
                Arguments.of("text not UTF-8", client(0x81, hex("ce ba e1 bd b9 cf 83 ce bc ce b5 ed a0 80")), 1007),
                Arguments.of("text ending inside a character", client(0x81, hex("ce")), 1007),
                Arguments.of("invalid UTF-8 split across fragments",
                        concat(client(0x01, hex("f4")), client(0x80, hex("90 80 80"))), 1007),
                Arguments.of("truncated character at the end of fragments",
                        concat(client(0x01, hex("e2 82")), client(0x80, new byte[0])), 1007));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void malformedFrameFailsTheConnection(String name, byte[] wire, int status) {
        Sink sink = new Sink();
        EmbeddedChannel ch = serverChannel(new WebSocketConfig(), sink);
        ch.writeInbound(Unpooled.wrappedBuffer(wire));
        ch.releaseInbound();
        assertClosedWith(ch, sink, status);
    }

    @Test
    void validCloseCodesAreAccepted() {
        for (int code : new int[] {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999,
                4000, 4999}) {
            Sink sink = new Sink();
            EmbeddedChannel ch = serverChannel(new WebSocketConfig(), sink);
            ch.writeInbound(Unpooled.wrappedBuffer(client(0x88, WireFrames.close(code, "ok"))));
            CloseWebSocketFrame c = ch.readInbound();
            assertThat(c.statusCode()).isEqualTo(code);
            assertThat(c.reasonText()).isEqualTo("ok");
            c.release();
            assertThat(sink.errors).isEmpty();
            assertThat(ch.finishAndReleaseAll()).isFalse();
        }
    }

    @Test
    void invalidUtf8IsDetectedBeforeTheFrameCompletes() {
        Sink sink = new Sink();
        EmbeddedChannel ch = serverChannel(new WebSocketConfig(), sink);
        byte[] wire = client(0x81, concat("valid text then ".getBytes(StandardCharsets.UTF_8), hex("ff"),
                new byte[100]));
        // Only the header and the first 20 payload bytes arrive: the bad byte among them already fails it.
        ch.writeInbound(Unpooled.wrappedBuffer(wire, 0, 6 + 20));
        assertClosedWith(ch, sink, 1007);
    }

    @Test
    void controlFramesMayArriveBetweenFragments() {
        Sink sink = new Sink();
        EmbeddedChannel ch = serverChannel(new WebSocketConfig(), sink);
        ch.writeInbound(Unpooled.wrappedBuffer(concat(client(0x01, hex("e2 82")), client(0x89, "p"),
                client(0x80, hex("ac")))));
        TextWebSocketFrame a = ch.readInbound();
        PingWebSocketFrame p = ch.readInbound();
        ContinuationWebSocketFrame b = ch.readInbound();
        assertThat(a.isFinalFragment()).isFalse();
        assertThat(b.isFinalFragment()).isTrue();
        a.release();
        p.release();
        b.release();
        assertThat(sink.errors).isEmpty();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    // ------------------------------------------------------------------ limits

    @Test
    void oversizedFrameIsRejectedFromItsHeader() {
        Sink sink = new Sink();
        EmbeddedChannel ch = serverChannel(new WebSocketConfig().setMaxFramePayloadBytes(1000), sink);
        // Only the header: the decoder refuses before buffering any of the claimed payload.
        ch.writeInbound(Unpooled.wrappedBuffer(hex("82 ff 00 00 00 01 00 00 00 00 11 22 33 44")));
        assertClosedWith(ch, sink, 1009);
        assertThat(sink.errors.get(0)).isInstanceOfSatisfying(WebSocketTooBigException.class,
                e -> assertThat(e.limit()).isEqualTo(1000));
    }

    @Test
    void oversizedFragmentedMessageIsRejected() {
        Sink sink = new Sink();
        EmbeddedChannel ch = serverChannel(new WebSocketConfig().setMaxMessageBytes(100), sink);
        ch.writeInbound(Unpooled.wrappedBuffer(concat(client(0x02, new byte[60]), client(0x80, new byte[60]))));
        ch.releaseInbound();
        assertClosedWith(ch, sink, 1009);
    }

    @Test
    void continuationFloodIsRejected() {
        Sink sink = new Sink();
        EmbeddedChannel ch = serverChannel(new WebSocketConfig().setMaxFragmentsPerMessage(10), sink);
        byte[][] frames = new byte[20][];
        frames[0] = client(0x02, new byte[0]);
        for (int i = 1; i < 20; i++) {
            frames[i] = client(0x00, new byte[0]);
        }
        ch.writeInbound(Unpooled.wrappedBuffer(concat(frames)));
        ch.releaseInbound();
        assertClosedWith(ch, sink, 1009);
    }

    @Test
    void closeReasonIsTheFailureCutToWhatACloseFrameHoldsAtACharacterBoundary() {
        assertThat(new WebSocketTooBigException("message", 1_048_577, 1_048_576).closeReason())
                .isEqualTo("message 1048577 over limit 1048576");
        // 61 two-byte characters are 122 bytes; the 62nd would end at byte 124, past the 123 allowed.
        String reason = new WebSocketProtocolException(1002, "é".repeat(70)).closeReason();
        assertThat(reason).isEqualTo("é".repeat(61));
        CloseWebSocketFrame close = new CloseWebSocketFrame(1002, reason);
        assertThat(close.reasonText()).isEqualTo(reason);
        close.release();
        assertThat(new WebSocketProtocolException(1002, null).closeReason()).isEmpty();
    }

    static void assertClosedWith(EmbeddedChannel ch, Sink sink, int status) {
        assertThat(sink.errors).hasSize(1);
        assertThat(sink.errors.get(0)).isInstanceOfSatisfying(WebSocketProtocolException.class,
                e -> assertThat(e.closeStatus()).isEqualTo(status));
        ByteBuf out = ch.readOutbound();
        assertThat(out).isNotNull();
        try {
            assertThat((int) out.getUnsignedByte(0)).isEqualTo(0x88);
            assertThat(out.getUnsignedShort(2)).isEqualTo(status);
        } finally {
            out.release();
        }
        assertThat(ch.isOpen()).isFalse();
        ch.finishAndReleaseAll();
    }

    static byte[] drainOutbound(EmbeddedChannel ch) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            out.writeBytes(ByteBufUtil.getBytes(b));
            b.release();
        }
        return out.toByteArray();
    }
}
