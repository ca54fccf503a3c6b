package io.weir.util.concurrent;

/** Makes the policy by which a {@link MultithreadEventExecutorGroup} hands out its executors from {@code next()}. */
@FunctionalInterface
public interface EventExecutorChooserFactory {

    /**
     * A chooser over {@code executors}, which the caller will not modify afterwards.
     *
     * @throws IllegalArgumentException if {@code executors} is empty
     */
    EventExecutorChooser newChooser(EventExecutor[] executors);

    /** Picks the executor for the next piece of work; called from any thread, so it must be thread-safe. */
    @FunctionalInterface
    interface EventExecutorChooser {

        /** The executor to use next. */
        EventExecutor next();
    }
}
