package io.weir.util.concurrent;

import java.util.concurrent.RejectedExecutionException;

/**
 * Decides what happens to a task a {@link SingleThreadEventExecutor} cannot accept: the executor is shut
 * down, or its bounded task queue is full. Called on the submitting thread.
 */
@FunctionalInterface
public interface RejectedExecutionHandler {

    /** The default: throws {@link RejectedExecutionException} to the submitter. */
    RejectedExecutionHandler REJECT = (task, executor) -> {
        throw new RejectedExecutionException(executor.isShutdown()
                ? "event executor shut down: " + executor
                : "event executor task queue full (" + executor.pendingTasks() + " pending): " + executor);
    };

    /** Handles {@code task}, which {@code executor} refused; may throw to the submitter. */
    void rejected(Runnable task, SingleThreadEventExecutor executor);
}
