package io.weir.metrics;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One {@link Counter} per value of a label from a closed set fixed at construction (closed by reason, requests by
 * status class, resets by error code): events are counted by index, so recording never looks a name up, and a peer
 * cannot grow the set. Thread-safe.
 */
public final class LabeledCounters {
    private final String labelName;
    private final List<String> labels;
    private final Counter[] counters;

    /**
     * Counters for {@code labels}, the values of the label {@code labelName} (e.g. {@code "reason"}).
     *
     * @throws IllegalArgumentException if {@code labels} is empty
     */
    public LabeledCounters(String labelName, List<String> labels) {
        this.labelName = Objects.requireNonNull(labelName, "labelName");
        this.labels = List.copyOf(labels);
        if (this.labels.isEmpty()) {
            throw new IllegalArgumentException("labels: empty (expected: at least one)");
        }
        counters = new Counter[this.labels.size()];
        for (int i = 0; i < counters.length; i++) {
            counters[i] = new Counter();
        }
    }

    /**
     * Counters for the constants of {@code labels}, in ordinal order (so a constant's ordinal is its index), each
     * labelled by its name in lower case.
     */
    public static LabeledCounters of(String labelName, Class<? extends Enum<?>> labels) {
        Enum<?>[] constants = labels.getEnumConstants();
        String[] names = new String[constants.length];
        for (int i = 0; i < constants.length; i++) {
            names[i] = constants[i].name().toLowerCase(Locale.ROOT);
        }
        return new LabeledCounters(labelName, List.of(names));
    }

    /** The name of the label the counters are split by. */
    public String labelName() {
        return labelName;
    }

    /** The label values, in index order. */
    public List<String> labels() {
        return labels;
    }

    /** How many label values (and counters) there are. */
    public int size() {
        return counters.length;
    }

    /**
     * The counter of label value {@code index}.
     *
     * @throws ArrayIndexOutOfBoundsException if {@code index} is not in [0, {@link #size()})
     */
    public Counter counter(int index) {
        return counters[index];
    }

    /** Counts one event under label value {@code index}. */
    public void increment(int index) {
        counters[index].increment();
    }

    /** The sum over every label value. */
    public long total() {
        long sum = 0;
        for (Counter c : counters) {
            sum += c.sum();
        }
        return sum;
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(labelName).append('{');
        for (int i = 0; i < counters.length; i++) {
            if (i > 0) {
                out.append(", ");
            }
            out.append(labels.get(i)).append('=').append(counters[i].sum());
        }
        return out.append('}').toString();
    }
}
