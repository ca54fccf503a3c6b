package io.weir.handler.codec.http.websocketx;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFuture;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WebSocketCloseHandshakeTest {

    private static WebSocketPeers open(WebSocketConfig serverConfig) {
        WebSocketPeers p = new WebSocketPeers(new WebSocketServerProtocolHandler("/ws", serverConfig),
                WebSocketPeers.handshaker(null, List.of()), true);
        p.pump();
        assertThat(p.clientHandler.handshakeFuture().isSuccess()).isTrue();
        return p;
    }

    @Test
    void clientInitiatedCloseIsEchoedAndTheServerClosesFirst() {
        WebSocketPeers p = open(new WebSocketConfig());
        p.client.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.GOING_AWAY, "bye"));
        p.pump();
        assertThat(p.server.isOpen()).isFalse();
        CloseWebSocketFrame atServer = (CloseWebSocketFrame) p.serverApp.messages.poll();
        assertThat(atServer.statusCode()).isEqualTo(1001);
        assertThat(atServer.reasonText()).isEqualTo("bye");
        atServer.release();
        CloseWebSocketFrame atClient = (CloseWebSocketFrame) p.clientApp.messages.poll();
        assertThat(atClient.statusCode()).isEqualTo(1001);
        atClient.release();
        // The client waits for the server's TCP close (here: the close timeout) rather than closing first.
        assertThat(p.client.isOpen()).isTrue();
        p.client.advanceTimeBy(WebSocketConfig.DEFAULT_CLOSE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        p.client.runPendingTasks();
        assertThat(p.client.isOpen()).isFalse();
        p.finish();
    }

    @Test
    void serverInitiatedCloseCompletesWhenTheClientAnswers() {
        WebSocketPeers p = open(new WebSocketConfig());
        p.server.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.NORMAL_CLOSURE, "done"));
        p.pump();
        assertThat(p.server.isOpen()).isFalse();
        p.finish();
    }

    @Test
    void drainingServerSays1001AndClosesOnceTheClientAnswers() {
        WebSocketPeers p = open(new WebSocketConfig());
        p.server.pipeline().fireUserEventTriggered(io.weir.channel.ChannelDrainEvent.INSTANCE);
        p.pump();
        CloseWebSocketFrame atClient = (CloseWebSocketFrame) p.clientApp.messages.poll();
        assertThat(atClient.statusCode()).isEqualTo(1001);
        assertThat(atClient.reasonText()).isEqualTo("server shutting down");
        atClient.release();
        assertThat(p.server.isOpen()).as("closed after the client's answer").isFalse();
        p.finish();
    }

    @Test
    void peerThatNeverAnswersTheCloseIsDisconnectedAfterTheTimeout() {
        WebSocketPeers p = open(new WebSocketConfig().setCloseTimeoutMillis(500));
        p.server.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.NORMAL_CLOSURE, ""));
        // The client's close answer is never delivered.
        ((ByteBuf) p.server.readOutbound()).release();
        assertThat(p.server.isOpen()).isTrue();
        p.server.advanceTimeBy(500, TimeUnit.MILLISECONDS);
        p.server.runPendingTasks();
        assertThat(p.server.isOpen()).isFalse();
        p.finish();
    }

    @Test
    void dataWrittenAfterCloseFails() {
        WebSocketPeers p = open(new WebSocketConfig());
        p.server.writeAndFlush(new CloseWebSocketFrame(WebSocketCloseStatus.NORMAL_CLOSURE, ""));
        ChannelFuture f = p.server.writeAndFlush(new TextWebSocketFrame("too late"));
        assertThat(f.isSuccess()).isFalse();
        p.finish();
    }

    @Test
    void silentPeerIsClosedWithTheDefaultConfiguration() {
        // Defaults alone: a peer that goes silent after the handshake is pinged after 30 s and closed with 1001 a
        // ping interval later, so nobody holds a connection by saying nothing.
        WebSocketPeers p = open(new WebSocketConfig());
        assertSilencePingedThenClosedWith1001(p, WebSocketConfig.DEFAULT_IDLE_PING_INTERVAL_MILLIS);
    }

    @Test
    void silentPeerIsPingedAndThenClosed() {
        WebSocketPeers p = open(new WebSocketConfig().setIdlePingIntervalMillis(1000));
        p.server.advanceTimeBy(1000, TimeUnit.MILLISECONDS);
        p.server.runPendingTasks();
        // A ping went out; the client answers it with a pong, so the connection stays.
        p.pump();
        assertThat(p.server.isOpen()).isTrue();
        p.server.advanceTimeBy(1000, TimeUnit.MILLISECONDS);
        p.server.runPendingTasks();
        assertThat(p.server.isOpen()).isTrue();
        // Now the client goes silent: a ping, then nothing for an interval -> close 1001.
        assertSilencePingedThenClosedWith1001(p, 1000);
    }

    /**
     * With the client silent from now on: one idle interval brings a ping, the next a close with 1001, and the
     * close timeout then closes the channel. Finishes {@code p}.
     */
    private static void assertSilencePingedThenClosedWith1001(WebSocketPeers p, long intervalMillis) {
        p.server.advanceTimeBy(intervalMillis, TimeUnit.MILLISECONDS);
        p.server.runPendingTasks();
        ByteBuf ping = p.server.readOutbound();
        assertThat((int) ping.getUnsignedByte(0)).isEqualTo(0x89);
        ping.release();
        p.server.advanceTimeBy(intervalMillis, TimeUnit.MILLISECONDS);
        p.server.runPendingTasks();
        ByteBuf close = p.server.readOutbound();
        assertThat((int) close.getUnsignedByte(0)).isEqualTo(0x88);
        assertThat(close.getUnsignedShort(2)).isEqualTo(1001);
        close.release();
        p.server.advanceTimeBy(WebSocketConfig.DEFAULT_CLOSE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        p.server.runPendingTasks();
        assertThat(p.server.isOpen()).isFalse();
        p.finish();
    }

    @Test
    void handshakeTimeoutIsCancelledOnceThe101IsWritten() {
        // The timeout guards the write of the 101; once it is written the connection is not closed by it.
        WebSocketPeers p = new WebSocketPeers(new WebSocketServerProtocolHandler("/ws",
                new WebSocketConfig().setHandshakeTimeoutMillis(300)), WebSocketPeers.handshaker(null, List.of()),
                true);
        Object req = p.client.readOutbound();
        p.server.writeInbound(req);
        // Written synchronously on an embedded channel: the timeout was cancelled, the connection stays.
        p.server.advanceTimeBy(300, TimeUnit.MILLISECONDS);
        p.server.runPendingTasks();
        assertThat(p.server.isOpen()).isTrue();
        Object res;
        while ((res = p.server.readOutbound()) != null) {
            ((ByteBuf) res).release();
        }
        p.finish();
    }

    @Test
    void pingIsAnsweredWithTheSamePayload() {
        WebSocketPeers p = open(new WebSocketConfig());
        p.server.writeInbound(Unpooled.wrappedBuffer(WireFrames.client(0x89, "abc")));
        ByteBuf pong = p.server.readOutbound();
        assertThat(ByteBufHex.of(pong)).isEqualTo("8a03616263");
        pong.release();
        p.finish();
    }

    /** Hex of a buffer's readable bytes. */
    static final class ByteBufHex {
        static String of(ByteBuf b) {
            return java.util.HexFormat.of().formatHex(io.weir.buffer.ByteBufUtil.getBytes(b));
        }
    }
}
