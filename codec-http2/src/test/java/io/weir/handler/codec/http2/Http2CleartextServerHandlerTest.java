package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.find;
import static io.weir.handler.codec.http2.Http2FrameClient.get;
import static io.weir.handler.codec.http2.internal.Http2Frames.DATA;
import static io.weir.handler.codec.http2.internal.Http2Frames.HEADERS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelInitializer;
import io.weir.channel.embedded.EmbeddedChannel;
import io.weir.handler.codec.http.HttpObjectAggregator;
import io.weir.handler.codec.http.HttpServerCodec;
import io.weir.handler.codec.http2.Http2FrameClient.Event;
import io.weir.handler.codec.http2.internal.Http2Frames;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class Http2CleartextServerHandlerTest {

    static Http2CleartextServerHandler handler() {
        ChannelInitializer<Channel> streams = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new Http2StreamFrameToHttpObjectCodec(), new HttpObjectAggregator(1024),
                        new Http2StreamFrameToHttpObjectCodecTest.Describe());
            }
        };
        ChannelInitializer<Channel> http1 = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1024),
                        new Http2StreamFrameToHttpObjectCodecTest.Describe());
            }
        };
        return new Http2CleartextServerHandler(new Http2ServerInitializer(Http2FrameCodecBuilder.forServer(),
                streams), http1);
    }

    @Test
    void priorKnowledgeGetsHttp2() {
        try (Http2FrameClient c = new Http2FrameClient(handler())) {
            // The preface in two pieces: the handler waits for all 24 octets.
            ByteBuf preface = Unpooled.wrappedBuffer(Http2Frames.connectionPreface());
            c.channel.writeInbound(preface.readRetainedSlice(10));
            c.raw(preface);
            c.frame(Http2Frames.SETTINGS, 0, 0, new byte[0]);
            c.headers(1, get("/pk"), true);
            List<Event> events = c.read();
            assertThat(find(events, HEADERS).headers().status().toString()).isEqualTo("200");
            assertThat(Http2FrameClient.text(find(events, DATA))).startsWith("GET /pk");
        }
    }

    @Test
    void http1RequestIsServedAsHttp1() {
        EmbeddedChannel ch = new EmbeddedChannel(handler());
        try {
            ch.writeInbound(Unpooled.copiedBuffer("GET /one HTTP/1.1\r\nHost: h\r\n\r\n", StandardCharsets.US_ASCII));
            String response = readAll(ch);
            assertThat(response).startsWith("HTTP/1.1 200 OK").contains("GET /one host=h");
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void emptyLinesBeforeAnHttp1RequestLineAreIgnored() {
        // RFC 9112 §2.2; they may also come in a read of their own.
        EmbeddedChannel ch = new EmbeddedChannel(handler());
        try {
            ch.writeInbound(Unpooled.copiedBuffer("\r\n", StandardCharsets.US_ASCII));
            ch.writeInbound(Unpooled.copiedBuffer("\r\nGET /two HTTP/1.1\r\nHost: h\r\n\r\n",
                    StandardCharsets.US_ASCII));
            assertThat(readAll(ch)).startsWith("HTTP/1.1 200 OK").contains("GET /two host=h");
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void upgradeToH2cServesTheRequestAsStreamOne() throws Http2Exception {
        EmbeddedChannel ch = new EmbeddedChannel(handler());
        try {
            assertThat(sendUpgrade(ch)).startsWith("HTTP/1.1 101 Switching Protocols");
            RecordingClient frames = new RecordingClient();
            frames.readAll(ch);
            // Until the client's preface, only the server's own preface (SETTINGS, WINDOW_UPDATE): the response
            // waits for the client to have switched to HTTP/2.
            assertThat(frames.client.events).extracting(Event::type).contains((int) Http2Frames.SETTINGS)
                    .doesNotContain((int) HEADERS, (int) DATA);
            ch.writeInbound(Unpooled.wrappedBuffer(Http2Frames.connectionPreface()),
                    Unpooled.wrappedBuffer(new byte[] {0, 0, 0, Http2Frames.SETTINGS, 0, 0, 0, 0, 0}));
            frames.readAll(ch);
            assertThat(frames.client.events).anyMatch(e -> e.type() == HEADERS && e.streamId() == 1);
            assertThat(frames.client.events.stream().filter(e -> e.type() == DATA).map(Http2FrameClient::text))
                    .anyMatch(t -> t.startsWith("GET /up host=h"));
            frames.client.close();
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void upgradedClientThatNeverSendsItsPrefaceGetsNoResponseAndIsClosed() {
        EmbeddedChannel ch = new EmbeddedChannel(handler());
        try {
            sendUpgrade(ch);
            RecordingClient frames = new RecordingClient();
            ch.advanceTimeBy(Http2FrameCodec.DEFAULT_SETTINGS_ACK_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            ch.runPendingTasks();
            frames.readAll(ch);
            assertThat(frames.client.events).extracting(Event::type).contains((int) Http2Frames.GOAWAY)
                    .doesNotContain((int) HEADERS, (int) DATA);
            assertThat(ch.isOpen()).isFalse();
            frames.client.close();
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void connectionResetBeforeTheProtocolIsChosenClosesQuietly() {
        EmbeddedChannel ch = new EmbeddedChannel(handler());
        try {
            ch.pipeline().fireExceptionCaught(new java.net.SocketException("Connection reset"));
            ch.checkException();
            assertThat(ch.isOpen()).isFalse();
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void connectionResetByThePeerClosesQuietly() {
        EmbeddedChannel ch = new EmbeddedChannel(handler());
        try {
            ch.writeInbound(Unpooled.wrappedBuffer(Http2Frames.connectionPreface()));
            // An IOException (ECONNRESET) reaching the end of the pipeline would be logged as unhandled and
            // rethrown here by checkException.
            ch.pipeline().fireExceptionCaught(new java.net.SocketException("Connection reset"));
            ch.checkException();
            assertThat(ch.isOpen()).isFalse();
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void malformedHttp2SettingsIsNotAnUpgrade() {
        assertThat(Http2ServerUpgradeHandler.decodeSettings("AAMAAABkAAQAAP__")).isNotNull();
        assertThat(Http2ServerUpgradeHandler.decodeSettings("AAMAAABk!")).isNull();
        // SETTINGS_ENABLE_PUSH of 2 is invalid (RFC 9113 §6.5.2).
        assertThat(Http2ServerUpgradeHandler.decodeSettings("AAIAAAAC")).isNull();
    }

    /** Parses server frames that follow a 101 with the test client's reader. */
    private static final class RecordingClient {
        final Http2FrameClient client = new Http2FrameClient();

        void read(ByteBuf out) {
            client.channel.writeOutbound(out);
            client.read();
        }

        void readAll(EmbeddedChannel server) {
            ByteBuf out;
            while ((out = server.readOutbound()) != null) {
                read(out);
            }
        }
    }

    /** Sends an h2c Upgrade request for /up; returns the first buffer the server wrote back (the 101). */
    private static String sendUpgrade(EmbeddedChannel ch) {
        ch.writeInbound(Unpooled.copiedBuffer("GET /up HTTP/1.1\r\nHost: h\r\nConnection: Upgrade, HTTP2-Settings"
                + "\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n\r\n", StandardCharsets.US_ASCII));
        ByteBuf first = ch.readOutbound();
        try {
            return first.toString(StandardCharsets.US_ASCII);
        } finally {
            first.release();
        }
    }

    private static String readAll(EmbeddedChannel ch) {
        StringBuilder sb = new StringBuilder();
        ByteBuf b;
        while ((b = ch.readOutbound()) != null) {
            sb.append(b.toString(StandardCharsets.US_ASCII));
            b.release();
        }
        return sb.toString();
    }

    /** Sends {@code firstBytes} (if any), then nothing: the connection closes exactly at the decision timeout. */
    private static void assertClosedAtTheDecisionTimeout(ByteBuf firstBytes) {
        EmbeddedChannel ch = new EmbeddedChannel(handler());
        try {
            if (firstBytes != null) {
                ch.writeInbound(firstBytes);
            }
            ch.advanceTimeBy(Http2CleartextServerHandler.DEFAULT_DECISION_TIMEOUT_MILLIS - 1, TimeUnit.MILLISECONDS);
            ch.runScheduledPendingTasks();
            assertThat(ch.isOpen()).isTrue();
            ch.advanceTimeBy(1, TimeUnit.MILLISECONDS);
            ch.runScheduledPendingTasks();
            assertThat(ch.isOpen()).isFalse();
            assertThat((Object) ch.readOutbound()).as("closed quietly").isNull();
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void silentConnectionIsClosedBeforeTheProtocolIsChosen() {
        assertClosedAtTheDecisionTimeout(null);
    }

    @Test
    void partialPrefaceIsClosed() {
        assertClosedAtTheDecisionTimeout(Unpooled.wrappedBuffer(Http2Frames.connectionPreface(), 0, 1));
    }

    @Test
    void partialRequestLineIsClosedBeforeTheProtocolIsChosen() {
        assertClosedAtTheDecisionTimeout(Unpooled.copiedBuffer("GET /slow", StandardCharsets.US_ASCII));
    }

    @Test
    void decidedConnectionOutlivesTheDecisionTimeout() {
        try (Http2FrameClient c = new Http2FrameClient(handler())) {
            c.raw(Unpooled.wrappedBuffer(Http2Frames.connectionPreface()));
            c.frame(Http2Frames.SETTINGS, 0, 0, new byte[0]);
            c.frame(Http2Frames.SETTINGS, Http2Frames.FLAG_ACK, 0, new byte[0]);
            c.read();
            c.advance(Http2CleartextServerHandler.DEFAULT_DECISION_TIMEOUT_MILLIS * 2);
            c.headers(1, get("/late"), true);
            assertThat(find(c.read(), HEADERS).headers().status().toString()).isEqualTo("200");
            assertThat(c.channel.isOpen()).isTrue();
        }
    }

    @Test
    void decisionTimeoutCanBeDisabled() {
        ChannelInitializer<Channel> none = new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel ch) {
            }
        };
        Http2ServerInitializer http2 = new Http2ServerInitializer(Http2FrameCodecBuilder.forServer(), none);
        assertThatThrownBy(() -> new Http2CleartextServerHandler(http2, none, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        EmbeddedChannel ch = new EmbeddedChannel(new Http2CleartextServerHandler(http2, none, 0));
        try {
            ch.advanceTimeBy(1, TimeUnit.HOURS);
            ch.runScheduledPendingTasks();
            assertThat(ch.isOpen()).isTrue();
        } finally {
            ch.finishAndReleaseAll();
        }
    }
}
