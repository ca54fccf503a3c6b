package io.weir.metrics;

import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.EventExecutorGroup;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * All the metrics of one server (or client): its connections, HTTP and TLS counters, and the event loops and
 * allocators it reads gauges from. Components record into it once they are given it (a builder or constructor
 * option); exporters ({@code weir-micrometer}'s binder, the reference server's {@code /metrics} page) read it. Adding
 * event loops turns {@link TaskTiming} on. Thread-safe.
 */
public final class WeirMetrics {
    private final ChannelMetrics channels = new ChannelMetrics();
    private final HttpMetrics http = new HttpMetrics();
    private final TlsMetrics tls = new TlsMetrics();
    private final CopyOnWriteArrayList<EventLoopMetrics> eventLoops = new CopyOnWriteArrayList<>();
    private final Map<String, AllocatorMetrics> allocators = Collections.synchronizedMap(new LinkedHashMap<>());

    /** Metrics at zero, with no event loop and no allocator. */
    public WeirMetrics() {
    }

    /** The connections' counters. */
    public ChannelMetrics channels() {
        return channels;
    }

    /** The HTTP/1.1 and HTTP/2 counters. */
    public HttpMetrics http() {
        return http;
    }

    /** The TLS handshake counters. */
    public TlsMetrics tls() {
        return tls;
    }

    /**
     * Adds every executor of {@code group} that reports {@link EventLoopMetrics} (Weir's I/O event loops do), once
     * each however often it is added, and turns {@link TaskTiming} on. Returns this.
     */
    public WeirMetrics addEventLoops(EventExecutorGroup group) {
        Objects.requireNonNull(group, "group");
        for (EventExecutor executor : group) {
            if (executor instanceof EventLoopMetrics loop) {
                eventLoops.addIfAbsent(loop);
            }
        }
        TaskTiming.enable();
        return this;
    }

    /**
     * Adds the allocator {@code metrics} under {@code name} (the label that tells allocators apart, e.g.
     * {@code "default"}), replacing one of the same name. Returns this.
     */
    public WeirMetrics addAllocator(String name, AllocatorMetrics metrics) {
        allocators.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(metrics, "metrics"));
        return this;
    }

    /** The event loops added so far, in order: an exporter labels each by its index. */
    public List<EventLoopMetrics> eventLoops() {
        return Collections.unmodifiableList(eventLoops);
    }

    /** A snapshot of the allocators added so far, by name, in the order added. */
    public Map<String, AllocatorMetrics> allocators() {
        synchronized (allocators) {
            return Collections.unmodifiableMap(new LinkedHashMap<>(allocators));
        }
    }
}
