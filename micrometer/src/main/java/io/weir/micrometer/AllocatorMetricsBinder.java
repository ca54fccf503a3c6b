package io.weir.micrometer;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.weir.metrics.AllocatorMetrics;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Binds a pooled allocator's {@link AllocatorMetrics}, tagged {@code allocator=<name>}: per arena (tags
 * {@code kind=heap|direct}, {@code arena=<index>}) {@code weir.allocator.used.memory} and
 * {@code weir.allocator.pinned.memory} in bytes, and {@code weir.allocator.thread.caches}. Reading a gauge takes the
 * arena's lock briefly, on the registry's thread.
 */
public final class AllocatorMetricsBinder implements MeterBinder {
    private final String name;
    private final AllocatorMetrics allocator;
    private final Iterable<Tag> tags;

    /** A binder for {@code allocator}, tagged {@code allocator=name}, with {@code tags} added to every meter. */
    public AllocatorMetricsBinder(String name, AllocatorMetrics allocator, Iterable<Tag> tags) {
        this.name = Objects.requireNonNull(name, "name");
        this.allocator = Objects.requireNonNull(allocator, "allocator");
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Tags base = Tags.concat(tags, "allocator", name);
        for (int i = 0; i < allocator.numHeapArenas(); i++) {
            int arena = i;
            Tags arenaTags = Tags.concat(base, "kind", "heap", "arena", Integer.toString(i));
            arenaGauges(registry, arenaTags, () -> allocator.heapArenaUsedMemory(arena),
                    () -> allocator.heapArenaPinnedMemory(arena));
        }
        for (int i = 0; i < allocator.numDirectArenas(); i++) {
            int arena = i;
            Tags arenaTags = Tags.concat(base, "kind", "direct", "arena", Integer.toString(i));
            arenaGauges(registry, arenaTags, () -> allocator.directArenaUsedMemory(arena),
                    () -> allocator.directArenaPinnedMemory(arena));
        }
        Gauge.builder("weir.allocator.thread.caches", allocator, AllocatorMetrics::numThreadCaches)
                .description("Threads holding a thread cache of the allocator").tags(base).strongReference(true)
                .register(registry);
    }

    private static void arenaGauges(MeterRegistry registry, Tags arenaTags, LongSupplier used,
                                    LongSupplier pinned) {
        Gauge.builder("weir.allocator.used.memory", used, s -> s.getAsLong())
                .description("Memory an arena holds from the system").baseUnit(BaseUnits.BYTES).tags(arenaTags)
                .strongReference(true).register(registry);
        Gauge.builder("weir.allocator.pinned.memory", pinned, s -> s.getAsLong())
                .description("Memory of an arena handed out to buffers and thread caches").baseUnit(BaseUnits.BYTES)
                .tags(arenaTags).strongReference(true).register(registry);
    }
}
