package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.handler.codec.http.HttpServerTimeouts;
import io.weir.metrics.WeirMetrics;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code GET /metrics}: off by default, and a Prometheus scrape that moves with the traffic when on. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpServerMetricsTest {

    @Test
    void metricsPathIsNotFoundWithoutTheOption() throws Exception {
        try (MetricsTraffic traffic = new MetricsTraffic(null)) {
            HttpResponse<String> response = traffic.get("/metrics");
            assertThat(response.statusCode()).isEqualTo(404);
            assertThat(response.body()).doesNotContain("weir_");
        }
    }

    @Test
    void scrapeCountsRequestsConnectionsHttp2AndTls() throws Exception {
        try (MetricsTraffic traffic = new MetricsTraffic(new WeirMetrics())) {
            Map<String, Double> before = scrape(traffic);
            for (int i = 0; i < 3; i++) {
                assertThat(traffic.get("/plaintext").statusCode()).isEqualTo(200);
            }
            assertThat(traffic.get("/no-such-route").statusCode()).isEqualTo(404);
            assertThat(traffic.getH2c("/json").statusCode()).isEqualTo(200);
            assertThat(traffic.getTls("/json").statusCode()).isEqualTo(200);
            traffic.resetThenBreakHttp2();

            HttpResponse<String> page = traffic.get("/metrics");
            assertThat(page.headers().firstValue("content-type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
            for (String line : page.body().split("\n")) {
                assertThat(line).as("every line a comment or a weir_ sample").matches("(# (HELP|TYPE) )?weir_.*");
            }
            Map<String, Double> after = parse(page.body());
            // The first scrape's own 200 is counted once its response is written, before this one.
            assertThat(moved(before, after, "weir_http_responses_total{status=\"2xx\"}")).isGreaterThanOrEqualTo(6);
            assertThat(moved(before, after, "weir_http_responses_total{status=\"4xx\"}")).isEqualTo(1);
            assertThat(moved(before, after, "weir_connections_accepted_total")).isGreaterThanOrEqualTo(3);
            assertThat(movedOverLoops(before, after, "weir_event_loop_received_bytes_total")).isPositive();
            assertThat(movedOverLoops(before, after, "weir_event_loop_sent_bytes_total")).isPositive();
            assertThat(moved(before, after, "weir_tls_handshakes_total{engine=\"jdk\"}")
                    + moved(before, after, "weir_tls_handshakes_total{engine=\"openssl\"}")).isEqualTo(1);
            assertThat(moved(before, after, "weir_http2_resets_total{direction=\"received\",error=\"CANCEL\"}"))
                    .isEqualTo(1);
            assertThat(moved(before, after,
                    "weir_http2_goaways_total{direction=\"sent\",error=\"PROTOCOL_ERROR\"}")).isEqualTo(1);
            assertThat(after.get("weir_http2_active_streams")).as("every stream answered and closed").isZero();
            assertThat(after).containsKeys("weir_event_loop_pending_tasks{loop=\"0\"}",
                    "weir_event_loop_pending_tasks{loop=\"1\"}", "weir_http2_active_streams", "weir_connections_open");
            assertThat(after.get("weir_event_loop_tasks_total{loop=\"0\"}")
                    + after.get("weir_event_loop_tasks_total{loop=\"1\"}")).isPositive();
            assertThat(after.keySet()).anyMatch(k -> k.startsWith("weir_allocator_used_memory_bytes{allocator="));
        }
    }

    @Test
    void aConnectionThatSendsNothingCountsARequestHeadTimeout() throws Exception {
        HttpServerTimeouts timeouts = new HttpServerTimeouts().setRequestHeadTimeout(200, TimeUnit.MILLISECONDS);
        try (MetricsTraffic traffic = new MetricsTraffic(new WeirMetrics(), timeouts)) {
            Map<String, Double> before = scrape(traffic);
            traffic.connectSilently();
            Map<String, Double> after = scrape(traffic);
            assertThat(moved(before, after, "weir_http_timeouts_total{timeout=\"request_head\"}")).isEqualTo(1);
            assertThat(moved(before, after, "weir_connections_closed_total{reason=\"local\"}")).isEqualTo(1);
        }
    }

    private static Map<String, Double> scrape(MetricsTraffic traffic) throws Exception {
        HttpResponse<String> page = traffic.get("/metrics");
        assertThat(page.statusCode()).isEqualTo(200);
        return parse(page.body());
    }

    /** Sample lines ({@code name{labels} value}) by series. */
    private static Map<String, Double> parse(String text) {
        Map<String, Double> samples = new HashMap<>();
        for (String line : text.split("\n")) {
            if (!line.startsWith("#") && !line.isEmpty()) {
                int space = line.lastIndexOf(' ');
                samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            }
        }
        return samples;
    }

    /** How far a per-loop family moved, summed over the loops. */
    private static double movedOverLoops(Map<String, Double> before, Map<String, Double> after, String family) {
        double moved = 0;
        for (String series : after.keySet()) {
            if (series.startsWith(family + "{loop=")) {
                moved += moved(before, after, series);
            }
        }
        return moved;
    }

    private static double moved(Map<String, Double> before, Map<String, Double> after, String series) {
        assertThat(after).containsKey(series);
        return after.get(series) - before.getOrDefault(series, 0.0);
    }
}
