package io.weir.grpc;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/** Handing work to an event loop that may have ended. */
final class LoopTasks {
    private LoopTasks() {
    }

    /**
     * Runs {@code task} on {@code loop}; false if the loop refused it, being shut down (a client channel's own loop,
     * once the channel terminated, or the caller's group, shut down first). Whatever the task was for has ended
     * with the loop's channels; the caller only settles what it holds (a message's buffer, say).
     */
    static boolean tryExecute(Executor loop, Runnable task) {
        try {
            loop.execute(task);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }
}
