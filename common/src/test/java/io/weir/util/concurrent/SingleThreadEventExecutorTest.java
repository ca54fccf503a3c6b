package io.weir.util.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.util.ManualTicker;
import io.weir.util.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class SingleThreadEventExecutorTest {
    private static final long TIMEOUT_SECONDS = 10;

    private static void terminate(EventExecutor executor) throws Exception {
        executor.shutdownGracefully(0, 10, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Occupies the executor thread until the returned latch is counted down. */
    private static CountDownLatch block(EventExecutor executor) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        executor.execute(() -> {
            entered.countDown();
            try {
                release.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(entered.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        return release;
    }

    @Test
    void threadStartsLazilyAndRunsEveryTaskOnIt() throws Exception {
        AtomicReference<Thread> created = new AtomicReference<>();
        DefaultEventExecutor executor = new DefaultEventExecutor(r -> {
            Thread t = new FastThreadLocalThread(r, "lazy-test");
            created.set(t);
            return t;
        });
        try {
            assertThat(created.get()).isNull();
            Thread first = executor.submit(Thread::currentThread).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Thread second = executor.submit(Thread::currentThread).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(first).isSameAs(created.get()).isSameAs(second);
            assertThat(executor.inEventLoop(first)).isTrue();
            assertThat(executor.inEventLoop()).isFalse();
        } finally {
            terminate(executor);
        }
    }

    @Test
    void burstOfTasksFromAnotherThreadRunsInSubmissionOrder() throws Exception {
        DefaultEventExecutor executor = new DefaultEventExecutor();
        try {
            int count = 200_000;
            int[] seen = new int[1];
            AtomicInteger outOfOrder = new AtomicInteger();
            for (int i = 0; i < count; i++) {
                int expected = i;
                executor.execute(() -> {
                    if (seen[0]++ != expected) {
                        outOfOrder.incrementAndGet();
                    }
                });
            }
            int total = executor.submit(() -> seen[0]).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(total).isEqualTo(count);
            assertThat(outOfOrder.get()).isZero();
        } finally {
            terminate(executor);
        }
    }

    @Test
    void tasksSubmittedFromInsideTheLoopRun() throws Exception {
        DefaultEventExecutor executor = new DefaultEventExecutor();
        try {
            int depth = 10_000;
            Promise<Integer> done = executor.newPromise();
            AtomicInteger hops = new AtomicInteger();
            Runnable[] hop = new Runnable[1];
            hop[0] = () -> {
                if (hops.incrementAndGet() == depth) {
                    done.setSuccess(depth);
                } else {
                    executor.execute(hop[0]);
                }
            };
            executor.execute(hop[0]);
            assertThat(done.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo(depth);
        } finally {
            terminate(executor);
        }
    }

    @Test
    void gracefulShutdownRunsTheTasksStillQueued() throws Exception {
        DefaultEventExecutor executor = new DefaultEventExecutor();
        CountDownLatch release = block(executor);
        List<Future<?>> pending = new ArrayList<>();
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 100; i++) {
            pending.add(executor.submit(ran::incrementAndGet));
        }
        Future<?> termination = executor.shutdownGracefully(0, 10, TimeUnit.SECONDS);
        assertThat(executor.isShuttingDown()).isTrue();
        release.countDown();

        termination.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(ran.get()).isEqualTo(100);
        assertThat(pending).allMatch(Future::isSuccess);
        assertThat(executor.isTerminated()).isTrue();
        assertThatThrownBy(() -> executor.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void shutdownRejectsNewTasksAtOnceButRunsQueuedOnes() throws Exception {
        DefaultEventExecutor executor = new DefaultEventExecutor();
        CountDownLatch release = block(executor);
        AtomicInteger ran = new AtomicInteger();
        Future<?> queued = executor.submit(ran::incrementAndGet);
        executor.shutdown();

        assertThat(executor.isShutdown()).isTrue();
        assertThatThrownBy(() -> executor.submit(ran::incrementAndGet))
                .isInstanceOf(RejectedExecutionException.class);
        release.countDown();
        assertThat(executor.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(queued.isSuccess()).isTrue();
        assertThat(ran.get()).isEqualTo(1);
    }

    @Test
    void shutdownNowCancelsQueuedTasksInsteadOfRunningThem() throws Exception {
        DefaultEventExecutor executor = new DefaultEventExecutor();
        CountDownLatch release = block(executor);
        AtomicInteger ran = new AtomicInteger();
        List<Future<?>> queued = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            queued.add(executor.submit(ran::incrementAndGet));
        }
        assertThat(executor.shutdownNow()).isEmpty();
        release.countDown();
        assertThat(executor.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(ran.get()).isZero();
        assertThat(queued).allMatch(Future::isCancelled);
    }

    @Test
    void everySubmissionRacingWithShutdownIsEitherRunOrRejected() throws Exception {
        for (int round = 0; round < 20; round++) {
            DefaultEventExecutor executor = new DefaultEventExecutor();
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger rejected = new AtomicInteger();
            int perThread = 2_000;
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> submitters = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                Thread submitter = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < perThread; i++) {
                        try {
                            executor.execute(ran::incrementAndGet);
                        } catch (RejectedExecutionException e) {
                            rejected.incrementAndGet();
                        }
                    }
                });
                submitters.add(submitter);
                submitter.start();
            }
            go.countDown();
            executor.shutdown();
            for (Thread submitter : submitters) {
                submitter.join(TIMEOUT_SECONDS * 1000);
            }
            assertThat(executor.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(ran.get() + rejected.get()).isEqualTo(3 * perThread);
        }
    }

    @Test
    void oneTaskInstanceSubmittedByRacingThreadsRunsOrIsRejectedOncePerSubmission() throws Exception {
        // The same Runnable queued many times by several threads while the executor shuts down: every
        // submission must end in exactly one run or one rejection, even when copies are left in the queue
        // after the executor's last drain and their submitters have to take them back.
        for (int round = 0; round < 40; round++) {
            AtomicInteger rejected = new AtomicInteger();
            DefaultEventExecutor executor = new DefaultEventExecutor(null, null, Ticker.system(),
                    SingleThreadEventExecutor.DEFAULT_MAX_PENDING_TASKS, (task, e) -> rejected.incrementAndGet(),
                    null);
            AtomicInteger ran = new AtomicInteger();
            Runnable shared = ran::incrementAndGet;
            int perThread = 1_000;
            int threads = 3;
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> submitters = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread submitter = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < perThread; i++) {
                        executor.execute(shared);
                    }
                });
                submitters.add(submitter);
                submitter.start();
            }
            executor.execute(shared);
            go.countDown();
            if (round % 2 == 0) {
                executor.shutdown();
            } else {
                executor.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            }
            for (Thread submitter : submitters) {
                submitter.join(TIMEOUT_SECONDS * 1000);
            }
            assertThat(executor.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(ran.get() + rejected.get()).isEqualTo(threads * perThread + 1);
            assertThat(executor.pendingTasks()).isZero();
        }
    }

    @Test
    void submissionsRacingWithShutdownNowAreCancelledRunOrRejectedButNeverLeftPending() throws Exception {
        for (int round = 0; round < 20; round++) {
            DefaultEventExecutor executor = new DefaultEventExecutor();
            List<Future<?>> accepted = java.util.Collections.synchronizedList(new ArrayList<>());
            AtomicInteger rejected = new AtomicInteger();
            int perThread = 1_000;
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> submitters = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                Thread submitter = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < perThread; i++) {
                        try {
                            accepted.add(executor.submit(() -> { }));
                        } catch (RejectedExecutionException e) {
                            rejected.incrementAndGet();
                        }
                    }
                });
                submitters.add(submitter);
                submitter.start();
            }
            go.countDown();
            executor.shutdownNow();
            for (Thread submitter : submitters) {
                submitter.join(TIMEOUT_SECONDS * 1000);
            }
            assertThat(executor.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
            assertThat(accepted.size() + rejected.get()).isEqualTo(2 * perThread);
            // A future that neither ran nor was cancelled would leave its caller waiting forever.
            assertThat(accepted).allMatch(Future::isDone);
        }
    }

    @Test
    void rejectedTasksGoToTheHandler() throws Exception {
        List<Runnable> refused = new ArrayList<>();
        DefaultEventExecutor executor = new DefaultEventExecutor(null, null, Ticker.system(),
                SingleThreadEventExecutor.DEFAULT_MAX_PENDING_TASKS, (task, e) -> refused.add(task), null);
        terminate(executor);
        Runnable late = () -> { };
        executor.execute(late);
        assertThat(refused).containsExactly(late);
    }

    @Test
    void boundedQueueRejectsOnceFullAndRunsWhatItAccepted() throws Exception {
        DefaultEventExecutor executor = new DefaultEventExecutor(null, null, Ticker.system(), 16,
                RejectedExecutionHandler.REJECT, null);
        try {
            CountDownLatch release = block(executor);
            AtomicInteger ran = new AtomicInteger();
            int accepted = 0;
            int rejected = 0;
            for (int i = 0; i < 100_000; i++) {
                try {
                    executor.execute(ran::incrementAndGet);
                    accepted++;
                } catch (RejectedExecutionException e) {
                    rejected++;
                    assertThat(e).hasMessageContaining("full");
                }
            }
            assertThat(rejected).isPositive();
            assertThat(executor.pendingTasks()).isEqualTo(accepted);
            release.countDown();
            executor.shutdownGracefully(0, 10, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(ran.get()).isEqualTo(accepted);
        } finally {
            terminate(executor);
        }
    }

    @Test
    void taskDecoratorWrapsExecutedSubmittedAndScheduledTasks() throws Exception {
        AtomicInteger decorated = new AtomicInteger();
        ThreadLocal<String> context = new ThreadLocal<>();
        UnaryOperator<Runnable> decorator = task -> {
            decorated.incrementAndGet();
            return () -> {
                context.set("decorated");
                try {
                    task.run();
                } finally {
                    context.remove();
                }
            };
        };
        ManualTicker ticker = Ticker.manual();
        DefaultEventExecutor executor = new DefaultEventExecutor(null, null, ticker,
                SingleThreadEventExecutor.DEFAULT_MAX_PENDING_TASKS, RejectedExecutionHandler.REJECT, decorator);
        try {
            Promise<String> viaExecute = executor.newPromise();
            executor.execute(() -> viaExecute.setSuccess(context.get()));
            Future<String> viaSubmit = executor.submit(context::get);
            ScheduledFuture<String> viaSchedule = executor.schedule(context::get, 1, TimeUnit.SECONDS);
            ScheduledFuture<?> viaRunnable = executor.schedule(() -> { }, 1, TimeUnit.SECONDS);
            ticker.advance(1, TimeUnit.SECONDS);

            assertThat(viaExecute.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("decorated");
            assertThat(viaSubmit.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("decorated");
            assertThat(viaSchedule.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("decorated");
            viaRunnable.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(decorated.get()).isEqualTo(4);
        } finally {
            terminate(executor);
        }
    }

    @Test
    void metricsCountTasksPerIterationAndInTotal() throws Exception {
        DefaultEventExecutor executor = new DefaultEventExecutor();
        try {
            CountDownLatch release = block(executor);
            List<Future<?>> batch = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                batch.add(executor.submit(() -> { }));
            }
            assertThat(executor.pendingTasks()).isEqualTo(10);
            release.countDown();
            for (Future<?> f : batch) {
                f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            // The probe starts a new iteration, so it sees the finished one: the blocker plus the batch.
            long[] seen = executor.submit(() -> new long[] {
                    executor.tasksRunLastIteration(), executor.totalTasksRun()}).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertThat(seen[0]).isEqualTo(11);
            assertThat(seen[1]).isEqualTo(11);
            assertThat(executor.pendingTasks()).isZero();
        } finally {
            terminate(executor);
        }
    }

    @Test
    void quietPeriodFollowsTheTickerAndAcceptsLateTasks() throws Exception {
        ManualTicker ticker = Ticker.manual();
        DefaultEventExecutor executor = new DefaultEventExecutor(ticker);
        executor.submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Future<?> termination = executor.shutdownGracefully(2, 60, TimeUnit.SECONDS);

        Future<String> late = executor.submit(() -> "accepted during the quiet period");
        assertThat(late.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("accepted during the quiet period");
        assertThat(termination.isDone()).isFalse();

        ticker.advance(3, TimeUnit.SECONDS);
        assertThat(termination.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
        assertThat(executor.isTerminated()).isTrue();
    }

    @Test
    void gracefulShutdownTimeoutEndsAQuietPeriodThatNeverComes() throws Exception {
        ManualTicker ticker = Ticker.manual();
        DefaultEventExecutor executor = new DefaultEventExecutor(ticker);
        executor.submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Future<?> termination = executor.shutdownGracefully(5, 10, TimeUnit.SECONDS);
        executor.submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        // A task every 2 s up to 10 s. The quiet period counts from the start of the iteration that ran the last
        // task, and a task submitted as soon as the previous one completed may join that one's iteration, so it
        // may count from one step earlier: 2 + 2 < 5, the quiet period never ends between two tasks.
        for (int second = 2; second <= 10; second += 2) {
            ticker.advance(2, TimeUnit.SECONDS);
            executor.submit(() -> { }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        }
        assertThat(termination.isDone()).isFalse();
        // 12 seconds after shutdown started, 2 after the last task: past the timeout, not the quiet period.
        ticker.advance(2, TimeUnit.SECONDS);
        assertThat(termination.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void blockingOnTheLoopsOwnFutureIsRefused() throws Exception {
        DefaultEventExecutor executor = new DefaultEventExecutor();
        try {
            Future<String> attempt = executor.submit(() -> executor.submit(() -> "inner").get());
            assertThatThrownBy(() -> attempt.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(BlockingOperationException.class);
            Future<?> await = executor.submit(() -> executor.awaitTermination(1, TimeUnit.SECONDS));
            assertThatThrownBy(() -> await.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(IllegalStateException.class);
        } finally {
            terminate(executor);
        }
    }

    @Test
    void submittedFutureCannotBeCompletedFromOutsideByCasting() throws Exception {
        DefaultEventExecutor executor = new DefaultEventExecutor();
        try {
            CountDownLatch release = block(executor);
            Future<String> future = executor.submit(() -> "real result");
            @SuppressWarnings("unchecked")
            Promise<String> cast = (Promise<String>) future;
            assertThat(cast.trySuccess("forged")).isFalse();
            assertThat(cast.tryFailure(new IllegalStateException("forged"))).isFalse();
            assertThatThrownBy(() -> cast.setSuccess("forged")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(cast::setUncancellable).isInstanceOf(IllegalStateException.class);
            release.countDown();
            assertThat(future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("real result");
        } finally {
            terminate(executor);
        }
    }

    @Test
    void failingTaskDoesNotKillTheLoop() throws Exception {
        DefaultEventExecutor executor = new DefaultEventExecutor();
        try {
            executor.execute(() -> {
                throw new IllegalStateException("task bug, expected by the test");
            });
            assertThat(executor.submit(() -> "still alive").get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    .isEqualTo("still alive");
        } finally {
            terminate(executor);
        }
    }

    @Test
    void shutdownBeforeAnyTaskStillTerminates() throws Exception {
        DefaultEventExecutor executor = new DefaultEventExecutor();
        executor.shutdownGracefully(0, 0, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(executor.isTerminated()).isTrue();
    }

    @Test
    void invalidShutdownArgumentsAreRejectedWithTheValues() {
        DefaultEventExecutor executor = new DefaultEventExecutor();
        assertThatThrownBy(() -> executor.shutdownGracefully(-1, 5, TimeUnit.SECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> executor.shutdownGracefully(5, 1, TimeUnit.SECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout: 1");
        assertThat(executor.isShuttingDown()).isFalse();
        executor.shutdown();
    }
}
