package io.weir.handler.codec.http.websocketx;

import static io.weir.handler.codec.http.websocketx.WireFrames.close;
import static io.weir.handler.codec.http.websocketx.WireFrames.hex;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufUtil;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.http.HttpClientCodec;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpServerCodec;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cases written from the public Autobahn|Testsuite case descriptions (sections 1-7: framing, pings and pongs,
 * reserved bits, opcodes, fragmentation, UTF-8, close handling), each run against Weir's server and against
 * Weir's client, behind an echo application, with the peer's bytes delivered whole and one byte at a time.
 * Expectations list what the peer sees: echoed messages ({@code T:text}, {@code B:length}), pongs
 * ({@code P:payload}) and close frames ({@code C:status}); a failing case ends with the close status and a closed
 * connection.
 */
class AutobahnConformanceTest {

    /** One frame the peer sends: first byte and payload (masked by a client, not by a server). */
    record F(int b0, byte[] payload) {
        @Override
        public String toString() {
            return String.format("%02x+%d", b0, payload.length);
        }
    }

    record Case(String id, String what, List<F> frames, List<String> expected, int failStatus) {
        @Override
        public String toString() {
            return id + " " + what;
        }
    }

    private static F f(int b0, String text) {
        return new F(b0, text.getBytes(StandardCharsets.UTF_8));
    }

    private static F f(int b0, byte[] payload) {
        return new F(b0, payload);
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) '*');
        return b;
    }

    private static Case ok(String id, String what, List<F> frames, String... expected) {
        return new Case(id, what, frames, List.of(expected), 0);
    }

    private static Case fails(String id, String what, int status, List<F> frames, String... expectedBefore) {
        List<String> e = new ArrayList<>(List.of(expectedBefore));
        e.add("C:" + status);
        return new Case(id, what, frames, e, status);
    }

    static Stream<Arguments> cases() {
        String s125 = "*".repeat(125);
        String s126 = "*".repeat(126);
        List<Case> c = new ArrayList<>(List.of(
                // 1 Framing
                ok("1.1.1", "text, empty", List.of(f(0x81, "")), "T:"),
                ok("1.1.2", "text, 125", List.of(f(0x81, s125)), "T:" + s125),
                ok("1.1.3", "text, 126", List.of(f(0x81, s126)), "T:" + s126),
                ok("1.1.5", "text, 128", List.of(f(0x81, "*".repeat(128))), "T:" + "*".repeat(128)),
                ok("1.1.6", "text, 65535", List.of(f(0x81, bytes(65535))), "T:" + "*".repeat(65535)),
                ok("1.1.7", "text, 65536", List.of(f(0x81, bytes(65536))), "T:" + "*".repeat(65536)),
                ok("1.2.1", "binary, empty", List.of(f(0x82, new byte[0])), "B:0"),
                ok("1.2.3", "binary, 126", List.of(f(0x82, bytes(126))), "B:126"),
                ok("1.2.7", "binary, 65536", List.of(f(0x82, bytes(65536))), "B:65536"),
                // 2 Pings/Pongs
                ok("2.1", "ping, no payload", List.of(f(0x89, "")), "P:"),
                ok("2.2", "ping, small text payload", List.of(f(0x89, "Hello, world!")), "P:Hello, world!"),
                ok("2.3", "ping, binary payload", List.of(f(0x89, hex("00 ff fe fd fc fb 00 ff"))),
                        "P:" + new String(hex("00 ff fe fd fc fb 00 ff"), StandardCharsets.ISO_8859_1)),
                ok("2.4", "ping, 125 bytes", List.of(f(0x89, s125)), "P:" + s125),
                fails("2.5", "ping, 126 bytes", 1002, List.of(f(0x89, s126))),
                ok("2.7", "unsolicited pong, no payload", List.of(f(0x8A, ""))),
                ok("2.8", "unsolicited pong with payload", List.of(f(0x8A, "unsolicited pong payload"))),
                ok("2.9", "unsolicited pong, then ping", List.of(f(0x8A, "x"), f(0x89, "ping payload")),
                        "P:ping payload"),
                ok("2.10", "10 pings", List.of(f(0x89, "0"), f(0x89, "1"), f(0x89, "2"), f(0x89, "3"), f(0x89, "4"),
                        f(0x89, "5"), f(0x89, "6"), f(0x89, "7"), f(0x89, "8"), f(0x89, "9")),
                        "P:0", "P:1", "P:2", "P:3", "P:4", "P:5", "P:6", "P:7", "P:8", "P:9"),
                // 3 Reserved bits
                fails("3.1", "RSV1 on text", 1002, List.of(f(0xC1, "Hello"))),
                fails("3.2", "text, then RSV2 text, then ping", 1002,
                        List.of(f(0x81, "Hello"), f(0xA1, "Hello"), f(0x89, "")), "T:Hello"),
                fails("3.3", "text, RSV1|RSV2 text, ping", 1002,
                        List.of(f(0x81, "Hello"), f(0xE1, "Hello"), f(0x89, "")), "T:Hello"),
                fails("3.4", "RSV3 binary", 1002, List.of(f(0x92, bytes(8)))),
                fails("3.6", "RSV2|RSV3 ping", 1002, List.of(f(0xB9, "ping"))),
                fails("3.7", "all RSV on close", 1002, List.of(f(0xF8, new byte[0]))),
                // 4 Opcodes
                fails("4.1.1", "reserved opcode 3", 1002, List.of(f(0x83, ""))),
                fails("4.1.2", "reserved opcode 4 with payload", 1002, List.of(f(0x84, "reserved opcode payload"))),
                fails("4.1.3", "text, opcode 5, ping", 1002, List.of(f(0x81, "Hello"), f(0x85, ""), f(0x89, "")),
                        "T:Hello"),
                fails("4.1.5", "text, opcode 7, ping", 1002, List.of(f(0x81, "Hello"), f(0x87, "x"), f(0x89, "")),
                        "T:Hello"),
                fails("4.2.1", "reserved opcode 11", 1002, List.of(f(0x8B, ""))),
                fails("4.2.3", "text, opcode 13, ping", 1002, List.of(f(0x81, "Hello"), f(0x8D, ""), f(0x89, "")),
                        "T:Hello"),
                fails("4.2.5", "text, opcode 15, ping", 1002, List.of(f(0x81, "Hello"), f(0x8F, "x"), f(0x89, "")),
                        "T:Hello"),
                // 5 Fragmentation
                fails("5.1", "ping in 2 fragments", 1002, List.of(f(0x09, "frag1"), f(0x80, "frag2"))),
                fails("5.2", "pong in 2 fragments", 1002, List.of(f(0x0A, "frag1"), f(0x80, "frag2"))),
                ok("5.3", "text in 2 fragments", List.of(f(0x01, "frag1"), f(0x80, "frag2")), "T:frag1frag2"),
                ok("5.6", "text in 2 fragments, ping between", List.of(f(0x01, "frag1"), f(0x89, "ping"),
                        f(0x80, "frag2")), "P:ping", "T:frag1frag2"),
                ok("5.8", "text in many fragments, pings between", List.of(f(0x01, "a"), f(0x89, "1"), f(0x00, "b"),
                        f(0x89, "2"), f(0x00, "c"), f(0x80, "d")), "P:1", "P:2", "T:abcd"),
                fails("5.9", "continuation with no message", 1002, List.of(f(0x80, "non-continuation payload"),
                        f(0x81, "Hello"))),
                fails("5.11", "continuation (not final) with no message", 1002,
                        List.of(f(0x00, "x"), f(0x80, "y"))),
                fails("5.15", "text, continuation fin, continuation, text", 1002,
                        List.of(f(0x01, "a"), f(0x80, "b"), f(0x00, "c"), f(0x81, "d")), "T:ab"),
                fails("5.17", "text fin=0 twice", 1002, List.of(f(0x01, "a"), f(0x01, "b"))),
                fails("5.18", "text in fragments, second opcode text", 1002,
                        List.of(f(0x01, "fragment1"), f(0x81, "fragment2"))),
                ok("5.19", "fragments with pings between, all delivered", List.of(f(0x01, "f1"), f(0x00, "f2"),
                        f(0x89, "p1"), f(0x00, "f3"), f(0x00, "f4"), f(0x89, "p2"), f(0x80, "f5")),
                        "P:p1", "P:p2", "T:f1f2f3f4f5"),
                // 6 UTF-8
                ok("6.1.1", "empty text", List.of(f(0x81, "")), "T:"),
                ok("6.1.2", "empty text in 3 fragments", List.of(f(0x01, ""), f(0x00, ""), f(0x80, "")), "T:"),
                ok("6.2.1", "valid UTF-8 in one frame", List.of(f(0x81, "Hello-µ@ßöäüàá-UTF-8!!")),
                        "T:Hello-µ@ßöäüàá-UTF-8!!"),
                ok("6.2.3", "valid UTF-8 split inside characters", List.of(f(0x01, hex("48 65 6c 6c 6f 2d c2")),
                        f(0x00, hex("b5 40 c3 9f c3")), f(0x80, hex("b6 c3 a4"))), "T:Hello-µ@ßöä"),
                ok("6.2.4", "κόσμε split byte by byte", byteFragments(hex("ce ba e1 bd b9 cf 83 ce bc ce b5"))
                        , "T:" + new String(hex("ce ba e1 bd b9 cf 83 ce bc ce b5"), StandardCharsets.UTF_8)),
                fails("6.3.1", "invalid UTF-8 in one frame", 1007,
                        List.of(f(0x81, hex("ce ba e1 bd b9 cf 83 ce bc ce b5 ed a0 80 65 64 69 74 65 64")))),
                fails("6.3.2", "invalid UTF-8 byte by byte", 1007,
                        byteFragments(hex("ce ba e1 bd b9 cf 83 ce bc ce b5 ed a0 80 65 64 69 74 65 64"))),
                fails("6.4.1", "fail fast: valid, invalid, valid fragments", 1007,
                        List.of(f(0x01, hex("ce ba e1 bd b9 cf 83 ce bc ce b5")), f(0x00, hex("f4 90 80 80")),
                                f(0x80, hex("65 64 69 74 65 64")))),
                fails("6.6.1", "lone continuation byte", 1007, List.of(f(0x81, hex("ce ba e1 80")))),
                ok("6.7.1", "U+0000", List.of(f(0x81, hex("00"))), "T:\u0000"),
                ok("6.7.4", "U+10000", List.of(f(0x81, hex("f0 90 80 80"))), "T:\ud800\udc00"),
                ok("6.11.1", "U+10FFFF", List.of(f(0x81, hex("f4 8f bf bf"))), "T:\udbff\udfff"),
                fails("6.11.5", "U+110000", 1007, List.of(f(0x81, hex("f4 90 80 80")))),
                fails("6.12.1", "overlong slash", 1007, List.of(f(0x81, hex("c0 af")))),
                fails("6.14.1", "lone high surrogate", 1007, List.of(f(0x81, hex("ed a0 80")))),
                fails("6.14.10", "paired surrogates", 1007, List.of(f(0x81, hex("ed a0 80 ed b0 80")))),
                fails("6.18.1", "0xFE", 1007, List.of(f(0x81, hex("fe")))),
                fails("6.20.1", "message ends inside a character", 1007, List.of(f(0x81, hex("e2 82")))),
                // 7 Close handling
                ok("7.1.1", "text, then close", List.of(f(0x81, "Hello"), f(0x88, close(1000, ""))),
                        "T:Hello", "C:1000"),
                ok("7.1.2", "two closes", List.of(f(0x88, close(1000, "")), f(0x88, close(1000, ""))), "C:1000"),
                ok("7.1.3", "ping after close", List.of(f(0x88, close(1000, "")), f(0x89, "x")), "C:1000"),
                ok("7.1.4", "text after close", List.of(f(0x88, close(1000, "")), f(0x81, "x")), "C:1000"),
                ok("7.1.5", "fragment, close, continuation", List.of(f(0x01, "frag1"), f(0x88, close(1000, "")),
                        f(0x80, "frag2")), "C:1000"),
                ok("7.3.1", "empty close", List.of(f(0x88, new byte[0])), "C:"),
                fails("7.3.2", "close with 1-byte payload", 1002, List.of(f(0x88, hex("03")))),
                ok("7.3.3", "close 1000, no reason", List.of(f(0x88, close(1000, ""))), "C:1000"),
                ok("7.3.4", "close 1000 with reason", List.of(f(0x88, close(1000, "Hello World!"))), "C:1000"),
                ok("7.3.5", "close with a 123-byte reason", List.of(f(0x88, close(1000, "*".repeat(123)))), "C:1000"),
                fails("7.3.6", "close with a 124-byte reason", 1002, List.of(f(0x88, close(1000, "*".repeat(124))))),
                fails("7.5.1", "close reason not UTF-8", 1007,
                        List.of(f(0x88, WireFrames.concat(close(1000, ""),
                                hex("ce ba e1 bd b9 cf 83 ce bc ce b5 ed a0 80")))))));
        for (int code : new int[] {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999,
                4000, 4999}) {
            c.add(ok("7.7", "valid close code " + code, List.of(f(0x88, close(code, ""))), "C:" + code));
        }
        for (int code : new int[] {0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535}) {
            c.add(fails("7.9", "invalid close code " + code, 1002, List.of(f(0x88, close(code, "")))));
        }
        List<Arguments> args = new ArrayList<>();
        for (Case k : c) {
            for (boolean server : new boolean[] {true, false}) {
                for (boolean byteWise : new boolean[] {false, true}) {
                    args.add(Arguments.of(k, server ? "server" : "client", byteWise));
                }
            }
        }
        return args.stream();
    }

    private static List<F> byteFragments(byte[] text) {
        List<F> l = new ArrayList<>();
        for (int i = 0; i < text.length; i++) {
            int b0 = (i == 0 ? 0x01 : 0x00) | (i == text.length - 1 ? 0x80 : 0);
            l.add(f(b0, new byte[] {text[i]}));
        }
        return l;
    }

    @ParameterizedTest(name = "{0} against the {1}, bytewise={2}")
    @MethodSource("cases")
    void autobahnCase(Case k, String side, boolean byteWise) {
        boolean server = side.equals("server");
        WebSocketPeers p = new WebSocketPeers(new WebSocketServerProtocolHandler("/ws"),
                WebSocketPeers.handshaker(null, List.of()), server);
        p.pump();
        assertThat(p.clientHandler.handshakeFuture().isSuccess()).isTrue();
        EmbeddedChannel weir = server ? p.server : p.client;
        WebSocketPeers.Recorder clientEcho = new WebSocketPeers.Recorder(true);
        if (!server) {
            // The client echoes too: its application writes back what it reads.
            weir.pipeline().replace(p.clientApp, "echo", clientEcho);
        }
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (F fr : k.frames()) {
            wire.writeBytes(WireFrames.frame(fr.b0(), server, fr.payload()));
        }
        byte[] in = wire.toByteArray();
        if (byteWise) {
            // One byte at a time; large cases in pieces of 997 bytes (still splitting every header and payload).
            int step = in.length < 4096 ? 1 : 997;
            for (int i = 0; i < in.length && weir.isOpen(); i += step) {
                weir.writeInbound(Unpooled.wrappedBuffer(in, i, Math.min(step, in.length - i)));
            }
        } else {
            weir.writeInbound(Unpooled.wrappedBuffer(in));
        }
        // What Weir wrote, read by a decoder of the peer's side (masked frames expected from a client).
        EmbeddedChannel peer = new EmbeddedChannel(new WebSocketFrameDecoder(!server, new WebSocketConfig()));
        Object o;
        while ((o = weir.readOutbound()) != null) {
            peer.writeInbound(o);
        }
        List<String> seen = new ArrayList<>();
        ByteArrayOutputStream message = null;
        int messageType = 0;
        while ((o = peer.readInbound()) != null) {
            WebSocketFrame fr = (WebSocketFrame) o;
            try {
                if (fr instanceof PongWebSocketFrame) {
                    seen.add("P:" + fr.content().toString(StandardCharsets.ISO_8859_1));
                } else if (fr instanceof CloseWebSocketFrame cf) {
                    seen.add("C:" + (cf.statusCode() < 0 ? "" : cf.statusCode()));
                } else if (fr instanceof PingWebSocketFrame) {
                    seen.add("PING");
                } else {
                    if (!(fr instanceof ContinuationWebSocketFrame)) {
                        message = new ByteArrayOutputStream();
                        messageType = fr.opcode();
                    }
                    message.writeBytes(ByteBufUtil.getBytes(fr.content()));
                    if (fr.isFinalFragment()) {
                        seen.add(messageType == WebSocketOpcodes.TEXT ? "T:" + message.toString(StandardCharsets.UTF_8)
                                : "B:" + message.size());
                    }
                }
            } finally {
                fr.release();
            }
        }
        assertThat(seen).isEqualTo(k.expected());
        if (k.failStatus() != 0 || server && k.expected().stream().anyMatch(e -> e.startsWith("C:"))) {
            assertThat(weir.isOpen()).as("connection closed").isFalse();
        }
        peer.finishAndReleaseAll();
        clientEcho.releaseAll();
        p.finish();
    }
}
