package io.weir.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.weir.metrics.EventLoopMetrics;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Binds event loops' {@link EventLoopMetrics}, each tagged {@code loop=<index>}: {@code weir.event.loop.pending.tasks},
 * {@code weir.event.loop.registered.channels}, {@code weir.event.loop.io.time} (seconds, a counter: its rate is the
 * share of time spent on I/O), {@code weir.event.loop.io.time.ratio} (since the loop started),
 * {@code weir.event.loop.wakeups}, {@code weir.event.loop.received}, {@code weir.event.loop.sent} (bytes),
 * {@code weir.event.loop.tasks}, {@code weir.event.loop.longest.task} and
 * {@code weir.event.loop.slow.tasks}. The loops are those given at construction; the registry reads them, from its
 * own thread, when scraped.
 */
public final class EventLoopMetricsBinder implements MeterBinder {
    private static final double NANOS_PER_SECOND = 1e9;

    private final List<EventLoopMetrics> loops;
    private final Iterable<Tag> tags;

    /** A binder for {@code loops} (index = the {@code loop} tag), with {@code tags} added to every meter. */
    public EventLoopMetricsBinder(List<? extends EventLoopMetrics> loops, Iterable<Tag> tags) {
        this.loops = List.copyOf(loops);
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (int i = 0; i < loops.size(); i++) {
            EventLoopMetrics loop = loops.get(i);
            Tags loopTags = Tags.concat(tags, "loop", Integer.toString(i));
            Gauge.builder("weir.event.loop.pending.tasks", loop, EventLoopMetrics::pendingTasks)
                    .description("Tasks waiting in the event loop's queue").tags(loopTags).strongReference(true)
                    .register(registry);
            Gauge.builder("weir.event.loop.registered.channels", loop, EventLoopMetrics::registeredChannels)
                    .description("Channels registered with the event loop (-1: not counted)").tags(loopTags)
                    .strongReference(true).register(registry);
            FunctionCounter.builder("weir.event.loop.io.time", loop, l -> l.ioTimeNanos() / NANOS_PER_SECOND)
                    .description("Time the event loop spent dispatching I/O").baseUnit("seconds")
                    .tags(loopTags).register(registry);
            Gauge.builder("weir.event.loop.io.time.ratio", loop, EventLoopMetrics::ioTimeRatio)
                    .description("Share of the event loop's life spent dispatching I/O").tags(loopTags)
                    .strongReference(true).register(registry);
            FunctionCounter.builder("weir.event.loop.wakeups", loop, EventLoopMetrics::wakeups)
                    .description("Times another thread woke the event loop to hand it a task").tags(loopTags)
                    .register(registry);
            FunctionCounter.builder("weir.event.loop.received", loop, EventLoopMetrics::bytesRead)
                    .description("Bytes the event loop's connections received").baseUnit(BaseUnits.BYTES)
                    .tags(loopTags).register(registry);
            FunctionCounter.builder("weir.event.loop.sent", loop, EventLoopMetrics::bytesWritten)
                    .description("Bytes the event loop's connections handed to the kernel to send")
                    .baseUnit(BaseUnits.BYTES).tags(loopTags).register(registry);
            FunctionCounter.builder("weir.event.loop.tasks", loop, EventLoopMetrics::totalTasksRun)
                    .description("Tasks the event loop ran").tags(loopTags).register(registry);
            TimeGauge.builder("weir.event.loop.longest.task", loop, TimeUnit.NANOSECONDS,
                            EventLoopMetrics::longestTaskNanos)
                    .description("Longest task the event loop ran (while task timing is on)").tags(loopTags)
                    .strongReference(true).register(registry);
            FunctionCounter.builder("weir.event.loop.slow.tasks", loop, EventLoopMetrics::slowTasks)
                    .description("Tasks that ran at least the slow-task threshold").tags(loopTags)
                    .register(registry);
        }
    }
}
