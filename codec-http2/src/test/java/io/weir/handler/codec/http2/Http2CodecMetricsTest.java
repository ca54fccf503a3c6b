package io.weir.handler.codec.http2;

import static io.weir.handler.codec.http2.Http2FrameClient.find;
import static io.weir.handler.codec.http2.Http2FrameClient.int32;
import static io.weir.handler.codec.http2.Http2FrameClient.post;
import static io.weir.handler.codec.http2.internal.Http2Frames.GOAWAY;
import static io.weir.handler.codec.http2.internal.Http2Frames.RST_STREAM;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.metrics.HttpMetrics;
import io.weir.metrics.LabeledCounters;
import org.junit.jupiter.api.Test;

/** What the frame codec records into {@link HttpMetrics}: streams, resets, GOAWAYs and timeouts, by error code. */
class Http2CodecMetricsTest {

    private static long count(LabeledCounters counters, Http2Error error) {
        return counters.counter(HttpMetrics.http2ErrorIndex(error.code())).sum();
    }

    private static long count(HttpMetrics metrics, HttpMetrics.Timeout timeout) {
        return metrics.timeouts().counter(timeout.ordinal()).sum();
    }

    private static Http2FrameClient client(HttpMetrics metrics) {
        return new Http2FrameClient(Http2FrameCodecBuilder.forServer().minBodyRate(0).metrics(metrics).build(),
                new FrameRecorder());
    }

    @Test
    void slowlorisStreamCountsAStreamReadTimeoutAndTheCancelSent() {
        HttpMetrics metrics = new HttpMetrics();
        try (Http2FrameClient c = client(metrics).handshake()) {
            c.headers(1, post("/upload"), false);
            c.read();
            assertThat(metrics.activeStreams().value()).isEqualTo(1);
            c.advance(Http2FrameCodec.DEFAULT_STREAM_READ_TIMEOUT_MILLIS);
            assertThat(find(c.read(), RST_STREAM)).isNotNull();
            assertThat(count(metrics, HttpMetrics.Timeout.STREAM_READ)).isEqualTo(1);
            assertThat(count(metrics.resetsSent(), Http2Error.CANCEL)).isEqualTo(1);
            assertThat(metrics.activeStreams().value()).isZero();
        }
    }

    @Test
    void peerResetsAndGoAwaysAreCountedByTheirErrorCode() {
        HttpMetrics metrics = new HttpMetrics();
        try (Http2FrameClient c = client(metrics).handshake()) {
            c.headers(1, post("/a"), false);
            c.headers(3, post("/b"), false);
            c.read();
            assertThat(metrics.activeStreams().value()).isEqualTo(2);
            c.rst(1, Http2Error.CANCEL);
            c.rst(3, Http2Error.INTERNAL_ERROR);
            c.read();
            assertThat(count(metrics.resetsReceived(), Http2Error.CANCEL)).isEqualTo(1);
            assertThat(count(metrics.resetsReceived(), Http2Error.INTERNAL_ERROR)).isEqualTo(1);
            assertThat(metrics.activeStreams().value()).isZero();
            // An error code RFC 9113 does not define is counted, under one label.
            byte[] goAway = new byte[8];
            System.arraycopy(int32(3), 0, goAway, 0, 4);
            System.arraycopy(int32(0xcafe), 0, goAway, 4, 4);
            c.frame(GOAWAY, 0, 0, goAway);
            c.read();
            assertThat(metrics.goAwaysReceived().counter(HttpMetrics.HTTP2_ERROR_LABELS.indexOf("UNKNOWN_ERROR"))
                    .sum()).isEqualTo(1);
        }
    }

    @Test
    void idleConnectionCountsAnIdleTimeoutAndItsGoAway() {
        HttpMetrics metrics = new HttpMetrics();
        try (Http2FrameClient c = client(metrics).handshake()) {
            c.advance(Http2FrameCodec.DEFAULT_IDLE_TIMEOUT_MILLIS);
            assertThat(find(c.read(), GOAWAY)).isNotNull();
            assertThat(count(metrics, HttpMetrics.Timeout.IDLE)).isEqualTo(1);
            assertThat(count(metrics.goAwaysSent(), Http2Error.NO_ERROR)).isEqualTo(1);
        }
    }
}
