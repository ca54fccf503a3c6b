package io.weir.util.concurrent;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Round-robin over the executors: a bit mask when their number is a power of two, a remainder otherwise.
 * The counter is a {@code long}, so the rotation stays even after more than 2^31 choices.
 */
public final class DefaultEventExecutorChooserFactory implements EventExecutorChooserFactory {
    /** The single instance. */
    public static final DefaultEventExecutorChooserFactory INSTANCE = new DefaultEventExecutorChooserFactory();

    private DefaultEventExecutorChooserFactory() {
    }

    @Override
    public EventExecutorChooser newChooser(EventExecutor[] executors) {
        if (executors.length == 0) {
            throw new IllegalArgumentException("executors is empty");
        }
        if (executors.length == 1) {
            return new SingleChooser(executors[0]);
        }
        if ((executors.length & (executors.length - 1)) == 0) {
            return new PowerOfTwoChooser(executors.clone());
        }
        return new ModuloChooser(executors.clone());
    }

    private static final class SingleChooser implements EventExecutorChooser {
        private final EventExecutor executor;

        SingleChooser(EventExecutor executor) {
            this.executor = executor;
        }

        @Override
        public EventExecutor next() {
            return executor;
        }
    }

    private static final class PowerOfTwoChooser implements EventExecutorChooser {
        private final AtomicLong index = new AtomicLong();
        private final EventExecutor[] executors;
        private final int mask;

        PowerOfTwoChooser(EventExecutor[] executors) {
            this.executors = executors;
            this.mask = executors.length - 1;
        }

        @Override
        public EventExecutor next() {
            return executors[(int) (index.getAndIncrement() & mask)];
        }
    }

    private static final class ModuloChooser implements EventExecutorChooser {
        private final AtomicLong index = new AtomicLong();
        private final EventExecutor[] executors;

        ModuloChooser(EventExecutor[] executors) {
            this.executors = executors;
        }

        @Override
        public EventExecutor next() {
            // floorMod keeps the index valid once the counter wraps past Long.MAX_VALUE.
            return executors[(int) Math.floorMod(index.getAndIncrement(), (long) executors.length)];
        }
    }
}
