package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.find;
import static io.weir.handler.codec.http2.Http2FrameClient.get;
import static io.weir.handler.codec.http2.internal.Http2Frames.DATA;
import static io.weir.handler.codec.http2.internal.Http2Frames.GOAWAY;
import static io.weir.handler.codec.http2.internal.Http2Frames.HEADERS;
import static io.weir.handler.codec.http2.internal.Http2Frames.RST_STREAM;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.channel.Channel;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInitializer;
import io.weir.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.weir.handler.codec.http.websocketx.PerMessageDeflateConfig;
import io.weir.handler.codec.http.websocketx.WebSocketConfig;
import io.weir.handler.codec.http.websocketx.WebSocketFrame;
import io.weir.handler.codec.http.websocketx.WebSocketServerHandshaker;
import io.weir.handler.codec.http2.Http2FrameClient.Event;
import io.weir.util.ReferenceCountUtil;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * RFC 8441 on the wire, against a server codec driven frame by frame: SETTINGS_ENABLE_CONNECT_PROTOCOL's rules,
 * the {@code :protocol} pseudo-header's, and the WebSocket handshake and bytes on a stream.
 */
class Http2WebSocketFramesTest {

    /** Echoes data frames; drops the rest. */
    @ChannelHandler.Sharable
    static final class Echo implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof WebSocketFrame f && !(f instanceof CloseWebSocketFrame)) {
                ctx.writeAndFlush(msg);
            } else {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    /** Answers a plain request 204, so that a test sees it got past the WebSocket handler. */
    @ChannelHandler.Sharable
    static final class NoContent implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Http2HeadersFrame) {
                ctx.writeAndFlush(new Http2HeadersFrame(new Http2Headers().status("204"), true));
            }
            ReferenceCountUtil.release(msg);
        }
    }

    private static Http2FrameClient server(boolean enabled) {
        Http2FrameCodecBuilder builder = Http2FrameCodecBuilder.forServer();
        if (enabled) {
            builder.initialSettings(new Http2Settings().connectProtocolEnabled(true));
        }
        WebSocketServerHandshaker handshaker = new WebSocketServerHandshaker(List.of("chat"), origin -> true,
                new WebSocketConfig(), new PerMessageDeflateConfig());
        ChannelInitializer<Channel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new Http2WebSocketServerHandler("/ws", handshaker, new Echo()), new NoContent());
            }
        };
        return new Http2FrameClient(builder.build(), new Http2MultiplexHandler(init)).handshake();
    }

    static Http2Headers extendedConnect(String path) {
        return new Http2Headers().method("CONNECT").protocol("websocket").scheme("http").authority("example.com")
                .path(path).add("sec-websocket-version", "13");
    }

    @Test
    void extendedConnectOpensAWebSocketOnTheStream() {
        try (Http2FrameClient c = server(true)) {
            c.headers(1, extendedConnect("/ws").add("sec-websocket-protocol", "other, chat"), false);
            Event answer = find(c.read(), HEADERS);
            assertThat(answer.headers().status().toString()).isEqualTo("200");
            assertThat(answer.endStream()).isFalse();
            // RFC 8441 §5: no key, no accept.
            assertThat(answer.headers().contains("sec-websocket-accept")).isFalse();
            assertThat(answer.headers().get("sec-websocket-protocol").toString()).isEqualTo("chat");
            // A masked text frame "hi" (mask 0x01020304) in one DATA frame.
            c.data(1, new byte[] {(byte) 0x81, (byte) 0x82, 1, 2, 3, 4, 'h' ^ 1, 'i' ^ 2}, false);
            Event echo = find(c.read(), DATA);
            // The server's frame is unmasked (RFC 6455 §5.1).
            assertThat(echo.data()).containsExactly(0x81, 2, 'h', 'i');
            c.data(1, new byte[0], true);
            Event end = find(c.read(), DATA);
            assertThat(end.endStream()).as("END_STREAM answers END_STREAM (RFC 8441 §6)").isTrue();
        }
    }

    @Test
    void quietWebSocketOverHttp2IsNotCutByTheStreamReadTimeoutOrTheBodyRate() {
        // A WebSocket quiet for minutes is normal; the tunnel's own rule (idle pings, answered) bounds it, not the
        // stream read timeout (30 s) or the minimum body rate (1 KiB/s) meant for request bodies.
        try (Http2FrameClient c = server(true)) {
            c.headers(1, extendedConnect("/ws"), false);
            assertThat(find(c.read(), HEADERS).headers().status().toString()).isEqualTo("200");
            int pings = 0;
            for (int second = 1; second <= 180; second++) {
                c.advance(1000);
                for (Event e : c.read()) {
                    assertThat(e.type()).as("at %d s: %s", second, e).isNotIn(RST_STREAM, GOAWAY);
                    if (e.type() == DATA && e.data().length >= 2 && (e.data()[0] & 0x0f) == 0x9) {
                        // The server's idle ping: answer with a masked pong carrying the same payload.
                        pings++;
                        c.data(1, maskedPong(e.data()), false);
                    }
                }
            }
            assertThat(pings).as("idle pings answered over 3 minutes").isGreaterThanOrEqualTo(3);
        }
    }

    @Test
    void silentWebSocketOverHttp2IsClosedByItsOwnIdleRule() {
        try (Http2FrameClient c = server(true)) {
            c.headers(1, extendedConnect("/ws"), false);
            c.read();
            Event close = null;
            for (int second = 1; second <= 120 && close == null; second++) {
                c.advance(1000);
                for (Event e : c.read()) {
                    if (e.type() == DATA && e.data().length >= 4 && (e.data()[0] & 0x0f) == 0x8) {
                        close = e;
                    }
                }
            }
            assertThat(close).as("a close frame for the peer that never answers the ping").isNotNull();
            int code = (close.data()[2] & 0xff) << 8 | close.data()[3] & 0xff;
            assertThat(code).isEqualTo(1001);
        }
    }

    /** A client's pong for the unmasked ping frame {@code ping} (a payload under 126 octets), masked. */
    private static byte[] maskedPong(byte[] ping) {
        int length = ping[1] & 0x7f;
        byte[] mask = {1, 2, 3, 4};
        byte[] pong = new byte[6 + length];
        pong[0] = (byte) 0x8a;
        pong[1] = (byte) (0x80 | length);
        System.arraycopy(mask, 0, pong, 2, 4);
        for (int i = 0; i < length; i++) {
            pong[6 + i] = (byte) (ping[2 + i] ^ mask[i & 3]);
        }
        return pong;
    }

    @Test
    void plainRequestsPassTheWebSocketHandler() {
        try (Http2FrameClient c = server(true)) {
            c.headers(1, get("/ws"), true);
            assertThat(find(c.read(), HEADERS).headers().status().toString()).isEqualTo("204");
        }
    }

    @Test
    void protocolWithoutTheSettingIsAStreamError() {
        try (Http2FrameClient c = server(false)) {
            c.headers(1, extendedConnect("/ws"), false);
            Event rst = find(c.read(), RST_STREAM);
            assertThat(rst.streamId()).isEqualTo(1);
            assertThat(rst.code()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
            assertThat(c.channel.isOpen()).isTrue();
        }
    }

    @Test
    void protocolOnAGetIsAStreamError() {
        try (Http2FrameClient c = server(true)) {
            c.headers(1, get("/ws").protocol("websocket"), false);
            Event rst = find(c.read(), RST_STREAM);
            assertThat(rst.code()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
        }
    }

    @Test
    void extendedConnectWithoutPathIsAStreamError() {
        try (Http2FrameClient c = server(true)) {
            c.headers(1, new Http2Headers().method("CONNECT").protocol("websocket").scheme("http")
                    .authority("example.com"), false);
            Event rst = find(c.read(), RST_STREAM);
            assertThat(rst.code()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
        }
    }

    @Test
    void extendedConnectForAnotherPathOrProtocolIsNotFound() {
        try (Http2FrameClient c = server(true)) {
            c.headers(1, extendedConnect("/elsewhere"), false);
            c.headers(3, extendedConnect("/ws").protocol("webtransport"), false);
            List<Event> events = c.read();
            assertThat(events.stream().filter(e -> e.type() == HEADERS).map(e -> e.headers().status().toString()))
                    .containsExactly("404", "404");
            // The client's half is reset after the answer: what it would still send is not read.
            assertThat(events.stream().filter(e -> e.type() == RST_STREAM).map(Event::streamId))
                    .containsExactly(1, 3);
        }
    }

    @Test
    void wrongWebSocketVersionIsAnswered426() {
        try (Http2FrameClient c = server(true)) {
            c.headers(1, extendedConnect("/ws").set("sec-websocket-version", "8"), false);
            Event answer = find(c.read(), HEADERS);
            assertThat(answer.headers().status().toString()).isEqualTo("426");
            assertThat(answer.headers().get("sec-websocket-version").toString()).isEqualTo("13");
        }
    }

    @Test
    void settingOtherThanZeroOrOneIsAConnectionError() {
        try (Http2FrameClient c = server(true)) {
            c.settings(Http2Settings.ENABLE_CONNECT_PROTOCOL, 2);
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
        }
    }

    @Test
    void settingTakenBackIsAConnectionError() {
        try (Http2FrameClient c = server(true)) {
            c.settings(Http2Settings.ENABLE_CONNECT_PROTOCOL, 1);
            assertThat(find(c.read(), GOAWAY)).isNull();
            c.settings(Http2Settings.ENABLE_CONNECT_PROTOCOL, 0);
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.PROTOCOL_ERROR.code());
        }
    }
}
