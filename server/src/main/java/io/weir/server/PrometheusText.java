package io.weir.server;

import io.weir.metrics.AllocatorMetrics;
import io.weir.metrics.ChannelMetrics;
import io.weir.metrics.Counter;
import io.weir.metrics.EventLoopMetrics;
import io.weir.metrics.HttpMetrics;
import io.weir.metrics.LabeledCounters;
import io.weir.metrics.TlsMetrics;
import io.weir.metrics.WeirMetrics;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Writes a {@link WeirMetrics} in the Prometheus text exposition format (version 0.0.4), every name prefixed
 * {@code weir_}: the names and labels that {@code weir-micrometer}'s binders produce in a Prometheus registry, so a
 * dashboard works with either. Each call reads the current values; it runs on whichever thread serves the scrape.
 */
final class PrometheusText {
    /** The {@code Content-Type} of the text format. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final double NANOS_PER_SECOND = 1e9;

    private final StringBuilder out = new StringBuilder(8192);

    private PrometheusText() {
    }

    /** The whole page for {@code metrics}. */
    static String render(WeirMetrics metrics) {
        PrometheusText text = new PrometheusText();
        text.eventLoops(metrics.eventLoops());
        for (Map.Entry<String, AllocatorMetrics> allocator : metrics.allocators().entrySet()) {
            text.allocator(allocator.getKey(), allocator.getValue());
        }
        text.channels(metrics.channels());
        text.http(metrics.http());
        text.tls(metrics.tls());
        return text.out.toString();
    }

    private void eventLoops(List<EventLoopMetrics> loops) {
        if (loops.isEmpty()) {
            return;
        }
        perLoop(loops, "weir_event_loop_pending_tasks", "gauge", "Tasks waiting in the event loop's queue",
                EventLoopMetrics::pendingTasks);
        perLoop(loops, "weir_event_loop_registered_channels", "gauge",
                "Channels registered with the event loop (-1: not counted)", EventLoopMetrics::registeredChannels);
        perLoop(loops, "weir_event_loop_io_time_seconds_total", "counter", "Time the event loop spent dispatching I/O",
                loop -> loop.ioTimeNanos() / NANOS_PER_SECOND);
        perLoop(loops, "weir_event_loop_io_time_ratio", "gauge", "Share of the event loop's life spent dispatching I/O",
                EventLoopMetrics::ioTimeRatio);
        perLoop(loops, "weir_event_loop_wakeups_total", "counter",
                "Times another thread woke the event loop to hand it a task", EventLoopMetrics::wakeups);
        perLoop(loops, "weir_event_loop_received_bytes_total", "counter", "Bytes the event loop's connections received",
                EventLoopMetrics::bytesRead);
        perLoop(loops, "weir_event_loop_sent_bytes_total", "counter",
                "Bytes the event loop's connections handed to the kernel to send", EventLoopMetrics::bytesWritten);
        perLoop(loops, "weir_event_loop_tasks_total", "counter", "Tasks the event loop ran",
                EventLoopMetrics::totalTasksRun);
        perLoop(loops, "weir_event_loop_longest_task_seconds", "gauge", "Longest task the event loop ran",
                loop -> loop.longestTaskNanos() / NANOS_PER_SECOND);
        perLoop(loops, "weir_event_loop_slow_tasks_total", "counter",
                "Tasks that ran at least the slow-task threshold", EventLoopMetrics::slowTasks);
    }

    /** One family with a sample per loop, labelled by the loop's index. */
    private void perLoop(List<EventLoopMetrics> loops, String name, String type, String help,
                         ToDoubleFunction<EventLoopMetrics> value) {
        family(name, type, help);
        for (int i = 0; i < loops.size(); i++) {
            out.append(name).append("{loop=\"").append(i).append("\"} ");
            value(value.applyAsDouble(loops.get(i))).append('\n');
        }
    }

    private void allocator(String name, AllocatorMetrics allocator) {
        family("weir_allocator_used_memory_bytes", "gauge", "Memory an arena holds from the system");
        for (int i = 0; i < allocator.numHeapArenas(); i++) {
            arenaSample("weir_allocator_used_memory_bytes", name, "heap", i, allocator.heapArenaUsedMemory(i));
        }
        for (int i = 0; i < allocator.numDirectArenas(); i++) {
            arenaSample("weir_allocator_used_memory_bytes", name, "direct", i, allocator.directArenaUsedMemory(i));
        }
        family("weir_allocator_pinned_memory_bytes", "gauge", "Memory of an arena handed out to buffers and thread caches");
        for (int i = 0; i < allocator.numHeapArenas(); i++) {
            arenaSample("weir_allocator_pinned_memory_bytes", name, "heap", i, allocator.heapArenaPinnedMemory(i));
        }
        for (int i = 0; i < allocator.numDirectArenas(); i++) {
            arenaSample("weir_allocator_pinned_memory_bytes", name, "direct", i,
                    allocator.directArenaPinnedMemory(i));
        }
        family("weir_allocator_thread_caches", "gauge", "Threads holding a thread cache of the allocator");
        out.append("weir_allocator_thread_caches{allocator=\"");
        labelValue(name).append("\"} ").append(allocator.numThreadCaches()).append('\n');
    }

    private void arenaSample(String metric, String allocator, String kind, int arena, long value) {
        out.append(metric).append("{allocator=\"");
        labelValue(allocator).append("\",kind=\"").append(kind).append("\",arena=\"").append(arena).append("\"} ")
                .append(value).append('\n');
    }

    private void channels(ChannelMetrics channels) {
        counter("weir_connections_accepted_total", "Connections that became active", channels.accepted());
        family("weir_connections_open", "gauge", "Connections active now");
        out.append("weir_connections_open ").append(channels.open().value()).append('\n');
        labeled("weir_connections_closed_total", "Connections closed, by reason", null, channels.closed(), true);
    }

    private void http(HttpMetrics http) {
        labeled("weir_http_responses_total", "HTTP responses, by status class", null, http.responses(), true);
        family("weir_http2_active_streams", "gauge", "HTTP/2 streams open now");
        out.append("weir_http2_active_streams ").append(http.activeStreams().value()).append('\n');
        labeled("weir_http2_resets_total", "HTTP/2 RST_STREAM frames, by error code", "direction=\"sent\"",
                http.resetsSent(), true);
        labeled("weir_http2_resets_total", null, "direction=\"received\"", http.resetsReceived(), false);
        labeled("weir_http2_goaways_total", "HTTP/2 GOAWAY frames, by error code", "direction=\"sent\"",
                http.goAwaysSent(), true);
        labeled("weir_http2_goaways_total", null, "direction=\"received\"", http.goAwaysReceived(), false);
        labeled("weir_http_timeouts_total", "Server timeouts that fired, by kind", null, http.timeouts(), true);
    }

    private void tls(TlsMetrics tls) {
        labeled("weir_tls_handshakes_total", "Completed TLS handshakes, by engine", null, tls.handshakes(), true);
        labeled("weir_tls_resumed_handshakes_total", "Completed TLS handshakes that resumed a session", null,
                tls.resumed(), true);
        labeled("weir_tls_handshake_failures_total", "Failed TLS handshakes, by reason", null, tls.failures(), true);
        family("weir_tls_resumption_ratio", "gauge", "Share of completed TLS handshakes that resumed a session");
        out.append("weir_tls_resumption_ratio ");
        value(tls.resumptionRate()).append('\n');
    }

    private void counter(String name, String help, Counter counter) {
        family(name, "counter", help);
        out.append(name).append(' ').append(counter.sum()).append('\n');
    }

    /**
     * One sample per label value of {@code counters}, after {@code fixedLabel} (e.g. {@code direction="sent"}) if
     * any; with the family's HELP and TYPE lines first when {@code header}.
     */
    private void labeled(String name, String help, String fixedLabel, LabeledCounters counters, boolean header) {
        if (header) {
            family(name, "counter", help);
        }
        for (int i = 0; i < counters.size(); i++) {
            out.append(name).append('{');
            if (fixedLabel != null) {
                out.append(fixedLabel).append(',');
            }
            out.append(counters.labelName()).append("=\"");
            labelValue(counters.labels().get(i)).append("\"} ").append(counters.counter(i).sum()).append('\n');
        }
    }

    private void family(String name, String type, String help) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private StringBuilder value(double value) {
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return out.append((long) value);
        }
        return out.append(value);
    }

    /** A label value, with backslash, double quote and line feed escaped as the format requires. */
    private StringBuilder labelValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
        return out;
    }
}
