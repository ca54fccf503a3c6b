package io.weir.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.weir.metrics.Counter;
import io.weir.metrics.LabeledCounters;

/** Registers Weir's counters as Micrometer function counters, read when the registry is scraped. */
final class Meters {
    private Meters() {
    }

    /** One function counter {@code name} over {@code counter}. */
    static void counter(MeterRegistry registry, String name, String description, String baseUnit, Counter counter,
                        Iterable<Tag> tags) {
        FunctionCounter.builder(name, counter, Counter::sum)
                .description(description)
                .baseUnit(baseUnit)
                .tags(tags)
                .register(registry);
    }

    /** One function counter {@code name} per label value of {@code counters}, tagged with the label. */
    static void counters(MeterRegistry registry, String name, String description, LabeledCounters counters,
                         Iterable<Tag> tags) {
        for (int i = 0; i < counters.size(); i++) {
            FunctionCounter.builder(name, counters.counter(i), Counter::sum)
                    .description(description)
                    .tags(tags)
                    .tag(counters.labelName(), counters.labels().get(i))
                    .register(registry);
        }
    }
}
