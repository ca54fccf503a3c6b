package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.find;
import static io.weir.handler.codec.http2.Http2FrameClient.get;
import static io.weir.handler.codec.http2.Http2FrameClient.post;
import static io.weir.handler.codec.http2.internal.Http2Frames.GOAWAY;
import static io.weir.handler.codec.http2.internal.Http2Frames.HEADERS;
import static io.weir.handler.codec.http2.internal.Http2Frames.PING;
import static io.weir.handler.codec.http2.internal.Http2Frames.RST_STREAM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.buffer.Unpooled;
import io.weir.handler.codec.http2.Http2FrameClient.Event;
import io.weir.handler.codec.http2.internal.Http2Frames;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The HTTP/2 connection's waits on the client: the idle timeout, the stream read timeout and the body rate. */
class Http2ConnectionTimeoutsTest {

    private static final long IDLE = Http2FrameCodec.DEFAULT_IDLE_TIMEOUT_MILLIS;
    private static final long STREAM_READ = Http2FrameCodec.DEFAULT_STREAM_READ_TIMEOUT_MILLIS;

    /** A server codec with the default timeouts, the body rate aside: these tests are about the other clocks. */
    private static Http2FrameClient client(FrameRecorder app) {
        return new Http2FrameClient(Http2FrameCodecBuilder.forServer().minBodyRate(0).build(), app);
    }

    /** Answers the graceful close's PING, so that the second GOAWAY follows. */
    private static List<Event> ackGracefulPing(Http2FrameClient c, List<Event> events) {
        Event ping = find(events, PING);
        assertThat(ping).as("the graceful close's PING in %s", events).isNotNull();
        c.frame(PING, Http2Frames.FLAG_ACK, 0, Http2FrameClient.long64(ping.code()));
        return c.read();
    }

    @Test
    void idleHttp2ConnectionIsClosedWithGoAway() {
        try (Http2FrameClient c = client(new FrameRecorder()).handshake()) {
            c.advance(IDLE - 1);
            assertThat(find(c.read(), GOAWAY)).isNull();
            c.advance(1);
            List<Event> events = c.read();
            Event goAway = find(events, GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.NO_ERROR.code());
            Event last = find(ackGracefulPing(c, events), GOAWAY);
            assertThat(last.streamId()).isZero();
            assertThat(c.channel.isOpen()).isFalse();
        }
    }

    @Test
    void silentClientWithoutPrefaceIsClosed() {
        // The ALPN path: no cleartext handler in front, the codec starts with the connection. A client that sends
        // nothing never acknowledges our SETTINGS, so the shorter of the two waits ends it (RFC 9113 §6.5.3).
        try (Http2FrameClient c = client(new FrameRecorder())) {
            c.read();
            c.advance(Http2FrameCodec.DEFAULT_SETTINGS_ACK_TIMEOUT_MILLIS);
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.SETTINGS_TIMEOUT.code());
            c.advance(Http2FrameCodec.DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MILLIS);
            assertThat(c.channel.isOpen()).isFalse();
        }
    }

    @Test
    void clientThatOnlyAcknowledgesIsClosedByTheIdleTimeout() {
        // The preface and SETTINGS ack, then no request: only the idle timeout ends it.
        try (Http2FrameClient c = client(new FrameRecorder()).handshake()) {
            c.advance(IDLE);
            assertThat(find(c.read(), GOAWAY).code()).isEqualTo(Http2Error.NO_ERROR.code());
            c.advance(Http2FrameCodec.DEFAULT_GRACEFUL_SHUTDOWN_TIMEOUT_MILLIS);
            assertThat(c.channel.isOpen()).isFalse();
        }
    }

    @Test
    void pingKeepAliveDoesNotHoldAnIdleConnection() {
        try (Http2FrameClient c = client(new FrameRecorder()).handshake()) {
            c.advance(IDLE / 2);
            c.ping(1);
            assertThat(find(c.read(), GOAWAY)).isNull();
            c.advance(IDLE / 2);
            c.ping(2);
            assertThat(find(c.read(), GOAWAY)).as("PINGs open no stream: the connection is still idle").isNotNull();
        }
    }

    @Test
    void requestsRestartTheIdleClock() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(app).handshake()) {
            for (int i = 0; i < 3; i++) {
                c.advance(IDLE - 1);
                c.headers(1 + 2 * i, get("/again"), true);
                c.read();
                Http2FrameStream stream = app.of(Http2HeadersFrame.class).get(i).stream();
                c.channel.writeAndFlush(new Http2HeadersFrame(stream, new Http2Headers().status("204"), true));
                assertThat(find(c.read(), GOAWAY)).isNull();
            }
        }
    }

    @Test
    void http2SlowlorisStreamIsReset() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(app).handshake()) {
            c.headers(1, post("/upload"), false);
            c.read();
            c.advance(STREAM_READ - 1);
            assertThat(find(c.read(), RST_STREAM)).isNull();
            c.advance(1);
            Event reset = find(c.read(), RST_STREAM);
            assertThat(reset.streamId()).isEqualTo(1);
            assertThat(reset.code()).isEqualTo(Http2Error.CANCEL.code());
            assertThat(app.of(Http2HeadersFrame.class).get(0).stream().isActive()).isFalse();
            assertThat(c.channel.isOpen()).isTrue();
        }
    }

    @Test
    void http2SlowlorisResetsAreCountedWithOtherResets() {
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodecBuilder.forServer()
                .maxResetsPerWindow(2, 60_000).minBodyRate(0).build(), new FrameRecorder()).handshake()) {
            c.headers(1, post("/a"), false);
            c.headers(3, post("/b"), false);
            c.headers(5, post("/c"), false);
            c.read();
            c.advance(STREAM_READ);
            Event goAway = find(c.read(), GOAWAY);
            assertThat(goAway.code()).isEqualTo(Http2Error.ENHANCE_YOUR_CALM.code());
            assertThat(c.channel.isOpen()).isFalse();
        }
    }

    @Test
    void trickledBodyWithinTheTimeoutIsServed() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(app).handshake()) {
            c.headers(1, post("/upload"), false);
            c.read();
            for (int i = 0; i < 5; i++) {
                c.advance(STREAM_READ - 1);
                c.data(1, new byte[] {'x'}, false);
                assertThat(find(c.read(), RST_STREAM)).isNull();
            }
            c.data(1, new byte[] {'y'}, true);
            c.read();
            Http2FrameStream stream = app.of(Http2HeadersFrame.class).get(0).stream();
            c.channel.writeAndFlush(new Http2HeadersFrame(stream, new Http2Headers().status("204"), true));
            assertThat(find(c.read(), HEADERS).headers().status().toString()).isEqualTo("204");
            assertThat(app.of(Http2DataFrame.class)).hasSize(6);
        }
    }

    @Test
    void bodyAfterALate100ContinueGetsTheWholeTimeout() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(app).handshake()) {
            c.headers(1, post("/upload").add("expect", "100-continue"), false);
            c.read();
            c.advance(STREAM_READ - 1);
            Http2FrameStream stream = app.of(Http2HeadersFrame.class).get(0).stream();
            c.channel.writeAndFlush(new Http2HeadersFrame(stream, new Http2Headers().status("100"), false));
            c.read();
            c.advance(STREAM_READ - 1);
            c.data(1, new byte[] {'x'}, true);
            assertThat(find(c.read(), RST_STREAM)).isNull();
            assertThat(app.of(Http2DataFrame.class)).hasSize(1);
        }
    }

    @Test
    void longPollIsNotCutWhileTheServerOwesTheAnswer() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(app).handshake()) {
            c.headers(1, get("/poll"), true);
            c.read();
            for (int i = 0; i < 10; i++) {
                c.advance(IDLE);
                List<Event> events = c.read();
                assertThat(find(events, RST_STREAM)).isNull();
                assertThat(find(events, GOAWAY)).isNull();
            }
            Http2FrameStream stream = app.of(Http2HeadersFrame.class).get(0).stream();
            c.channel.writeAndFlush(new Http2HeadersFrame(stream, new Http2Headers().status("200"), true));
            assertThat(find(c.read(), HEADERS).headers().status().toString()).isEqualTo("200");
            // Answered: the idle clock starts now.
            c.advance(IDLE - 1);
            assertThat(find(c.read(), GOAWAY)).isNull();
            c.advance(1);
            assertThat(find(c.read(), GOAWAY)).isNotNull();
        }
    }

    @Test
    void uploadHeldByTheServersFlowControlIsNotReset() {
        // The application does not consume: the stream window fills and the client must wait for us.
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(app).handshake()) {
            c.headers(1, post("/upload"), false);
            for (int i = 0; i < 3; i++) {
                c.data(1, new byte[16_384], false);
            }
            c.data(1, new byte[65_535 - 3 * 16_384], false);
            c.read();
            c.advance(STREAM_READ * 4);
            assertThat(find(c.read(), RST_STREAM)).isNull();
            assertThat(app.of(Http2HeadersFrame.class).get(0).stream().isActive()).isTrue();
        }
    }

    /** Queues a PING frame in the channel's outbound buffer, unflushed: output the client has not taken yet. */
    private static void queueUnsentOutput(Http2FrameClient c) {
        c.channel.pipeline().firstContext().write(Unpooled.buffer(17).writeMedium(8).writeByte(PING).writeByte(0)
                .writeInt(0).writeLong(42));
    }

    @Test
    void unreadResponseDoesNotShieldASlowlorisStream() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = client(app).handshake()) {
            c.headers(1, post("/upload"), false);
            c.read();
            queueUnsentOutput(c);
            c.advance(STREAM_READ);
            Event reset = find(c.read(), RST_STREAM);
            assertThat(reset).as("reset although output waits for the client").isNotNull();
            assertThat(reset.streamId()).isEqualTo(1);
        }
    }

    @Test
    void idleClockWaitsForTheLastAnswerToLeave() {
        try (Http2FrameClient c = client(new FrameRecorder()).handshake()) {
            queueUnsentOutput(c);
            c.advance(IDLE * 2);
            assertThat(c.channel.isOpen()).isTrue();
            c.channel.flush();
            c.read();
            c.advance(IDLE);
            assertThat(find(c.read(), GOAWAY)).isNotNull();
        }
    }

    @Test
    void timeoutsCanBeDisabled() {
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodecBuilder.forServer().idleTimeoutMillis(0)
                .streamReadTimeoutMillis(0).build(), new FrameRecorder()).handshake()) {
            c.headers(1, post("/upload"), false);
            c.read();
            c.advance(IDLE * 10);
            List<Event> events = c.read();
            assertThat(find(events, RST_STREAM)).isNull();
            assertThat(find(events, GOAWAY)).isNull();
        }
    }

    @Test
    void negativeTimeoutsAreRejected() {
        assertThatThrownBy(() -> Http2FrameCodecBuilder.forServer().idleTimeoutMillis(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> Http2FrameCodecBuilder.forServer().streamReadTimeoutMillis(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThat(Http2FrameCodecBuilder.forClient().idleTimeoutMillis()).isZero();
        assertThat(Http2FrameCodecBuilder.forServer().streamReadTimeoutMillis()).isEqualTo(STREAM_READ);
    }

    @Test
    void http2BodyTrickledBelowTheMinimumRateIsReset() {
        // 20 connections x 100 streams at 1 byte/s were never cut before: the HTTP/1.1 rule now holds per stream.
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), app).handshake()) {
            c.headers(1, post("/upload"), false);
            c.read();
            Event reset = null;
            int seconds = 0;
            while (reset == null && seconds < 40) {
                c.data(1, new byte[] {'x'}, false);
                c.advance(1000);
                seconds++;
                reset = find(c.read(), RST_STREAM);
            }
            assertThat(reset).as("a stream sending 1 byte/s").isNotNull();
            assertThat(seconds).as("seconds until the reset").isLessThan((int) (STREAM_READ / 1000));
            assertThat(reset.code()).isEqualTo(Http2Error.CANCEL.code());
            assertThat(c.channel.isOpen()).isTrue();
        }
    }

    @Test
    void http2BodyAboveTheMinimumRateIsServed() {
        FrameRecorder app = new FrameRecorder();
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodec.forServer(), app).handshake()) {
            c.headers(1, post("/upload"), false);
            c.read();
            // 1,500 octets a second for 40 s: above 1 KiB/s, and within the stream's 65,535-octet window.
            for (int i = 0; i < 40; i++) {
                c.data(1, new byte[1500], false);
                c.advance(1000);
                assertThat(find(c.read(), RST_STREAM)).as("reset after %d s", i + 1).isNull();
            }
        }
    }
}
