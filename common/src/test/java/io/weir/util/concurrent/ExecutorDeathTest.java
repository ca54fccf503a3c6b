package io.weir.util.concurrent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An executor whose {@link SingleThreadEventExecutor#run()} throws cannot go on. It must not vanish silently:
 * it still cleans up (where an event loop closes its channels), its termination future fails with the cause,
 * and its group's termination future reports it.
 */
class ExecutorDeathTest {
    private static final long TIMEOUT_SECONDS = 10;

    @Test
    void anExecutorWhoseRunThrowsFailsItsAndItsGroupsTerminationFuture() throws Exception {
        Error fatal = new Error("the loop cannot continue");
        CountDownLatch cleanedUp = new CountDownLatch(1);
        MultithreadEventExecutorGroup group = new MultithreadEventExecutorGroup(2, (Executor) null,
                DefaultEventExecutorChooserFactory.INSTANCE) {
            private int created;

            @Override
            protected EventExecutor newChild(Executor executor, Object... args) {
                boolean dies = created++ == 0;
                return new SingleThreadEventExecutor(this, executor, io.weir.util.Ticker.system(),
                        Integer.MAX_VALUE, RejectedExecutionHandler.REJECT, null) {
                    @Override
                    protected void run() {
                        if (dies) {
                            throw fatal;
                        }
                        while (!confirmShutdown()) {
                            runAllTasks();
                            takeTaskIfAny();
                        }
                    }

                    private void takeTaskIfAny() {
                        Runnable task = takeTask();
                        if (task != null) {
                            runTask(task);
                        }
                    }

                    @Override
                    protected void cleanup() {
                        if (dies) {
                            cleanedUp.countDown();
                        }
                    }
                };
            }
        };
        EventExecutor doomed = group.iterator().next();
        doomed.execute(() -> { });
        assertThat(doomed.terminationFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(doomed.terminationFuture().cause()).isSameAs(fatal);
        assertThat(cleanedUp.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        // The group serves on with the other executor until it is shut down, then reports the death.
        assertThat(group.terminationFuture().isDone()).isFalse();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        assertThat(group.terminationFuture().await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(group.terminationFuture().cause()).isSameAs(fatal);
    }
}
