package io.weir.handler.codec.http.websocketx;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpServerCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WebSocketHandshakeTest {
    private static final String KEY = "dGhlIHNhbXBsZSBub25jZQ==";

    @Test
    void acceptValueMatchesRfc6455Section13() {
        assertThat(WebSocketServerHandshaker.acceptValue(KEY)).isEqualTo("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    }

    private static String request(String extraHeaders) {
        return "GET /ws?x=1 HTTP/1.1\r\nHost: example.com\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n"
                + "Sec-WebSocket-Key: " + KEY + "\r\nSec-WebSocket-Version: 13\r\n" + extraHeaders + "\r\n";
    }

    private static String exchange(WebSocketServerProtocolHandler handler, String request) {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpObjectAggregator(1024), handler);
        ch.writeInbound(Unpooled.copiedBuffer(request, StandardCharsets.US_ASCII));
        StringBuilder out = new StringBuilder();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            out.append(b.toString(StandardCharsets.ISO_8859_1));
            b.release();
        }
        ch.finishAndReleaseAll();
        return out.toString();
    }

    @Test
    void validUpgradeIsAnsweredWith101AndThePipelineSwitches() {
        WebSocketPeers.Recorder app = new WebSocketPeers.Recorder(false);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpObjectAggregator(1024),
                new WebSocketServerProtocolHandler("/ws").subprotocols(List.of("chat", "superchat")), app);
        ch.writeInbound(Unpooled.copiedBuffer(request("Sec-WebSocket-Protocol: superchat, chat\r\n"),
                StandardCharsets.US_ASCII));
        ByteBuf b = ch.readOutbound();
        String res = b.toString(StandardCharsets.ISO_8859_1);
        b.release();
        assertThat(res).startsWith("HTTP/1.1 101 Switching Protocols\r\n")
                .containsIgnoringCase("upgrade: websocket\r\n")
                .containsIgnoringCase("sec-websocket-accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n")
                .containsIgnoringCase("sec-websocket-protocol: superchat\r\n");
        assertThat(ch.pipeline().get(HttpServerCodec.class)).isNull();
        assertThat(ch.pipeline().get(HttpObjectAggregator.class)).isNull();
        assertThat(app.events).singleElement().isInstanceOfSatisfying(WebSocketServerHandshakeCompleted.class, e -> {
            assertThat(e.requestUri()).isEqualTo("/ws?x=1");
            assertThat(e.subprotocol()).isEqualTo("superchat");
            assertThat(e.requestHeaders().get("host")).isEqualTo("example.com");
        });
        // Frames now flow: a masked text frame arrives as a TextWebSocketFrame.
        ch.writeInbound(Unpooled.wrappedBuffer(WireFrames.client(0x81, "hi")));
        TextWebSocketFrame t = (TextWebSocketFrame) app.messages.poll();
        assertThat(t.text()).isEqualTo("hi");
        t.release();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "wrong version|Sec-WebSocket-Version: 13|Sec-WebSocket-Version: 8|426",
            "key not base64|" + KEY + "|not base64 at all!!!!!!!|400",
            "key of 15 bytes|" + KEY + "|dGhlIHNhbXBsZSBub25jZQ|400",
            "no upgrade token|Upgrade: websocket|Upgrade: h2c|400",
            "no connection upgrade|Connection: keep-alive, Upgrade|Connection: keep-alive|400",
            "POST|GET /ws|POST /ws|400",
            "HTTP/1.0|/ws?x=1 HTTP/1.1|/ws?x=1 HTTP/1.0|400"})
    void badUpgradeIsRefused(String name, String from, String to, int status) {
        String res = exchange(new WebSocketServerProtocolHandler("/ws"), request("").replace(from, to));
        assertThat(res).startsWith("HTTP/1.1 " + status + " ");
        assertThat(res).containsIgnoringCase("connection: close");
        if (status == 426) {
            assertThat(res).containsIgnoringCase("sec-websocket-version: 13");
        }
    }

    @Test
    void crossSiteOriginIsRefusedWith403() {
        WebSocketServerProtocolHandler h = new WebSocketServerProtocolHandler("/ws")
                .originCheck(o -> "https://example.com".equals(o));
        assertThat(exchange(h, request("Origin: https://evil.example\r\n"))).startsWith("HTTP/1.1 403 ");
        WebSocketServerProtocolHandler ok = new WebSocketServerProtocolHandler("/ws")
                .originCheck(o -> "https://example.com".equals(o));
        assertThat(exchange(ok, request("Origin: https://example.com\r\n"))).startsWith("HTTP/1.1 101 ");
    }

    @Test
    void otherPathsPassThrough() {
        WebSocketPeers.Recorder app = new WebSocketPeers.Recorder(false);
        EmbeddedChannel ch = new EmbeddedChannel(new HttpServerCodec(), new HttpObjectAggregator(1024),
                new WebSocketServerProtocolHandler("/ws"), app);
        ch.writeInbound(Unpooled.copiedBuffer("GET /other HTTP/1.1\r\nHost: a\r\n\r\n", StandardCharsets.US_ASCII));
        assertThat(app.messages).hasSize(1);
        app.releaseAll();
        assertThat(ch.finishAndReleaseAll()).isFalse();
    }

    @Test
    void clientAndServerCompleteTheHandshakeAndExchangeMessages() {
        WebSocketPeers p = new WebSocketPeers(new WebSocketServerProtocolHandler("/ws").subprotocols(List.of("b")),
                WebSocketPeers.handshaker(null, List.of("a", "b")), true);
        p.pump();
        assertThat(p.clientHandler.handshakeFuture().isSuccess()).isTrue();
        assertThat(p.clientHandler.handshaker().subprotocol()).isEqualTo("b");
        assertThat(p.clientApp.events).contains(WebSocketClientHandshakeEvent.HANDSHAKE_COMPLETE);
        p.client.writeAndFlush(new TextWebSocketFrame("echo me"));
        p.client.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(new byte[] {1, 2, 3})));
        p.pump();
        TextWebSocketFrame t = (TextWebSocketFrame) p.clientApp.messages.poll();
        BinaryWebSocketFrame bin = (BinaryWebSocketFrame) p.clientApp.messages.poll();
        assertThat(t.text()).isEqualTo("echo me");
        assertThat(bin.content().readableBytes()).isEqualTo(3);
        t.release();
        bin.release();
        p.finish();
    }

    @Test
    void serverFramesArrivingWithThe101AreNotLost() {
        WebSocketPeers.Recorder app = new WebSocketPeers.Recorder(false);
        WebSocketClientHandshaker hs = WebSocketPeers.handshaker(null, List.of());
        EmbeddedChannel client = new EmbeddedChannel(new io.weir.handler.codec.http.HttpClientCodec(),
                new HttpObjectAggregator(1024), new WebSocketClientProtocolHandler(hs), app);
        ByteBuf req = client.readOutbound();
        String key = req.toString(StandardCharsets.US_ASCII).replaceAll("(?s).*sec-websocket-key: ([^\r]+)\r.*", "$1");
        req.release();
        byte[] head = ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: " + WebSocketServerHandshaker.acceptValue(key) + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        // The 101 and the first frame in one read.
        client.writeInbound(Unpooled.wrappedBuffer(WireFrames.concat(head, WireFrames.frame(0x81, false,
                "first".getBytes(StandardCharsets.UTF_8)))));
        TextWebSocketFrame t = (TextWebSocketFrame) app.messages.poll();
        assertThat(t).isNotNull();
        assertThat(t.text()).isEqualTo("first");
        t.release();
        assertThat(client.finishAndReleaseAll()).isFalse();
    }

    @Test
    void wrongAcceptValueFailsTheClientHandshake() {
        WebSocketPeers.Recorder app = new WebSocketPeers.Recorder(false);
        WebSocketClientProtocolHandler h = new WebSocketClientProtocolHandler(WebSocketPeers.handshaker(null, List.of()));
        EmbeddedChannel client = new EmbeddedChannel(new io.weir.handler.codec.http.HttpClientCodec(),
                new HttpObjectAggregator(1024), h, app);
        ((ByteBuf) client.readOutbound()).release();
        client.writeInbound(Unpooled.copiedBuffer("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n",
                StandardCharsets.US_ASCII));
        assertThat(h.handshakeFuture().cause()).isInstanceOf(WebSocketHandshakeException.class)
                .hasMessageContaining("Sec-WebSocket-Accept");
        assertThat(client.isOpen()).isFalse();
        client.finishAndReleaseAll();
    }

    @Test
    void unofferedSubprotocolOrExtensionFailsTheClientHandshake() {
        for (String extra : new String[] {"Sec-WebSocket-Protocol: other\r\n",
                "Sec-WebSocket-Extensions: permessage-deflate\r\n"}) {
            WebSocketClientProtocolHandler h =
                    new WebSocketClientProtocolHandler(WebSocketPeers.handshaker(null, List.of("mine")));
            EmbeddedChannel client = new EmbeddedChannel(new io.weir.handler.codec.http.HttpClientCodec(),
                    new HttpObjectAggregator(1024), h, new WebSocketPeers.Recorder(false));
            ByteBuf req = client.readOutbound();
            String key = req.toString(StandardCharsets.US_ASCII)
                    .replaceAll("(?s).*sec-websocket-key: ([^\r]+)\r.*", "$1");
            req.release();
            client.writeInbound(Unpooled.copiedBuffer("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Accept: " + WebSocketServerHandshaker.acceptValue(key)
                    + "\r\n" + extra + "\r\n", StandardCharsets.US_ASCII));
            assertThat(h.handshakeFuture().cause()).as(extra).isInstanceOf(WebSocketHandshakeException.class);
            client.finishAndReleaseAll();
        }
    }

    @Test
    void silentServerTimesTheClientHandshakeOut() {
        WebSocketPeers.Recorder app = new WebSocketPeers.Recorder(false);
        WebSocketClientProtocolHandler h = new WebSocketClientProtocolHandler(WebSocketPeers.handshaker(null, List.of()));
        EmbeddedChannel client = new EmbeddedChannel(new io.weir.handler.codec.http.HttpClientCodec(),
                new HttpObjectAggregator(1024), h, app);
        ((ByteBuf) client.readOutbound()).release();
        client.advanceTimeBy(WebSocketConfig.DEFAULT_HANDSHAKE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        client.runPendingTasks();
        assertThat(app.events).contains(WebSocketClientHandshakeEvent.HANDSHAKE_TIMEOUT);
        assertThat(client.isOpen()).isFalse();
        assertThat(h.handshakeFuture().isSuccess()).isFalse();
        client.finishAndReleaseAll();
    }
}
