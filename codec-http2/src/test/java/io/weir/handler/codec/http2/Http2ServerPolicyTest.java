package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.find;
import static io.weir.handler.codec.http2.Http2FrameClient.post;
import static io.weir.handler.codec.http2.internal.Http2Frames.GOAWAY;
import static io.weir.handler.codec.http2.internal.Http2Frames.RST_STREAM;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.handler.codec.http.HttpServerPolicy;
import io.weir.handler.codec.http2.Http2FrameClient.Event;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@link Http2FrameCodecBuilder#policy}: the HTTP/2 connection under the same policy object as HTTP/1.1. */
class Http2ServerPolicyTest {
    private static final HttpServerPolicy POLICY = HttpServerPolicy.builder()
            .idleTimeout(Duration.ofSeconds(5))
            .streamReadTimeout(Duration.ofSeconds(3))
            .minBodyRate(1024, Duration.ofSeconds(1), Duration.ofSeconds(2))
            .writeTimeout(Duration.ofSeconds(7))
            .build();

    @Test
    void policySetsTheBuildersTimeouts() {
        Http2FrameCodecBuilder b = Http2FrameCodecBuilder.forServer().policy(POLICY);
        assertThat(b.idleTimeoutMillis()).isEqualTo(5_000);
        assertThat(b.streamReadTimeoutMillis()).isEqualTo(3_000);
        assertThat(b.minBodyRate()).isEqualTo(1024);
        assertThat(b.bodyRateGracePeriodNanos).isEqualTo(Duration.ofSeconds(1).toNanos());
        assertThat(b.bodyRateWindowNanos).isEqualTo(Duration.ofSeconds(2).toNanos());
        assertThat(b.writeProgressTimeoutMillis).isEqualTo(7_000);
        assertThat(b.streamReadTimeoutMillis(0).streamReadTimeoutMillis()).as("a later setter wins").isZero();
    }

    @Test
    void idleConnectionIsClosedAtThePolicysIdleTimeout() {
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodecBuilder.forServer().policy(POLICY).build(),
                new FrameRecorder()).handshake()) {
            c.advance(4_999);
            assertThat(find(c.read(), GOAWAY)).isNull();
            c.advance(1);
            assertThat(find(c.read(), GOAWAY).code()).isEqualTo(Http2Error.NO_ERROR.code());
        }
    }

    @Test
    void http2SlowlorisStreamIsResetAtThePolicysStreamReadTimeout() {
        HttpServerPolicy noRate = POLICY.toBuilder().minBodyRate(0).build();
        try (Http2FrameClient c = new Http2FrameClient(Http2FrameCodecBuilder.forServer().policy(noRate).build(),
                new FrameRecorder()).handshake()) {
            c.headers(1, post("/upload"), false);
            c.read();
            c.advance(2_999);
            assertThat(find(c.read(), RST_STREAM)).isNull();
            c.advance(1);
            Event reset = find(c.read(), RST_STREAM);
            assertThat(reset.streamId()).isEqualTo(1);
            assertThat(reset.code()).isEqualTo(Http2Error.CANCEL.code());
        }
    }

    @Test
    void http2SlowBodyIsResetAfterThePolicysGracePeriodAndWindow() {
        // 1 byte/s: only the body rate can end it, and with a 1 s grace period and 2 s windows it does within a
        // few seconds (the first window opens at the timer's first run after the grace period), where the defaults
        // (5 s grace, 10 s windows) would take at least 15.
        HttpServerPolicy noReadTimeout = POLICY.toBuilder().streamReadTimeout(Duration.ZERO).build();
        try (Http2FrameClient c = new Http2FrameClient(
                Http2FrameCodecBuilder.forServer().policy(noReadTimeout).build(), new FrameRecorder()).handshake()) {
            c.headers(1, post("/upload"), false);
            c.read();
            Event reset = null;
            int seconds = 0;
            while (reset == null && seconds < 20) {
                c.data(1, new byte[] {'x'}, false);
                c.advance(1000);
                seconds++;
                reset = find(c.read(), RST_STREAM);
            }
            assertThat(reset).as("a stream sending 1 byte/s").isNotNull();
            assertThat(reset.code()).isEqualTo(Http2Error.CANCEL.code());
            assertThat(seconds).as("seconds until the reset").isLessThan(7);
        }
    }
}
