package io.weir.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class MetricsApiTest {

    @Test
    void statusCodesFallIntoTheirClassAndNonsenseIntoOther() {
        HttpMetrics http = new HttpMetrics();
        http.response(101);
        http.response(200);
        http.response(299);
        http.response(404);
        http.response(503);
        http.response(99);
        http.response(600);
        LabeledCounters responses = http.responses();
        assertThat(responses.labels()).containsExactly("1xx", "2xx", "3xx", "4xx", "5xx", "other");
        assertThat(responses.counter(0).sum()).isEqualTo(1);
        assertThat(responses.counter(1).sum()).isEqualTo(2);
        assertThat(responses.counter(2).sum()).isZero();
        assertThat(responses.counter(3).sum()).isEqualTo(1);
        assertThat(responses.counter(4).sum()).isEqualTo(1);
        assertThat(responses.counter(5).sum()).isEqualTo(2);
        assertThat(responses.total()).isEqualTo(7);
    }

    @Test
    void peerChosenHttp2ErrorCodesCannotGrowTheLabelSet() {
        assertThat(HttpMetrics.HTTP2_ERROR_LABELS.get(HttpMetrics.http2ErrorIndex(0x8))).isEqualTo("CANCEL");
        assertThat(HttpMetrics.HTTP2_ERROR_LABELS.get(HttpMetrics.http2ErrorIndex(0xd)))
                .isEqualTo("HTTP_1_1_REQUIRED");
        int unknown = HttpMetrics.HTTP2_ERROR_LABELS.indexOf("UNKNOWN_ERROR");
        assertThat(HttpMetrics.http2ErrorIndex(0xe)).isEqualTo(unknown);
        assertThat(HttpMetrics.http2ErrorIndex(0xffff_ffffL)).isEqualTo(unknown);
        assertThat(HttpMetrics.http2ErrorIndex(-1)).isEqualTo(unknown);
    }

    @Test
    void countersNeverGoDownAndGaugesDo() {
        Counter counter = new Counter();
        counter.add(5);
        counter.increment();
        assertThat(counter.sum()).isEqualTo(6);
        assertThatThrownBy(() -> counter.add(-1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
        Gauge gauge = new Gauge();
        gauge.increment();
        gauge.increment();
        gauge.decrement();
        assertThat(gauge.value()).isEqualTo(1);
    }

    @Test
    void connectionsCloseByReasonAndTlsResumptionIsAShare() {
        ChannelMetrics channels = new ChannelMetrics();
        channels.opened();
        channels.opened();
        channels.closed(ChannelMetrics.CloseReason.ERROR);
        assertThat(channels.open().value()).isEqualTo(1);
        assertThat(channels.accepted().sum()).isEqualTo(2);
        assertThat(channels.closed().counter(ChannelMetrics.CloseReason.ERROR.ordinal()).sum()).isEqualTo(1);
        assertThat(channels.closed().labels()).containsExactly("peer", "local", "error");

        TlsMetrics tls = new TlsMetrics();
        assertThat(tls.resumptionRate()).isZero();
        tls.handshakeCompleted(TlsMetrics.Engine.JDK, false);
        tls.handshakeCompleted(TlsMetrics.Engine.OPENSSL, true);
        tls.handshakeCompleted(TlsMetrics.Engine.OPENSSL, true);
        tls.handshakeCompleted(TlsMetrics.Engine.OPENSSL, false);
        tls.handshakeFailed(TlsMetrics.FailureReason.NOT_TLS);
        assertThat(tls.resumptionRate()).isEqualTo(0.5);
        assertThat(tls.failures().counter(TlsMetrics.FailureReason.NOT_TLS.ordinal()).sum()).isEqualTo(1);
    }

    @Test
    void labeledCountersNeedAtLeastOneLabel() {
        assertThatThrownBy(() -> new LabeledCounters("reason", List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new LabeledCounters("kind", List.of("a", "b")).toString()).isEqualTo("kind{a=0, b=0}");
    }
}
