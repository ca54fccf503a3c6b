package io.weir.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.util.concurrent.FastThreadLocal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HashedWheelTimerTest {
    private static final long WAIT_SECONDS = 30;

    private final ManualTicker ticker = Ticker.manual();
    private final List<HashedWheelTimer> timers = new ArrayList<>();

    private HashedWheelTimer newTimer(HashedWheelTimer.Builder builder) {
        HashedWheelTimer timer = builder.ticker(ticker).tickDuration(10, TimeUnit.MILLISECONDS).build();
        timers.add(timer);
        return timer;
    }

    @AfterEach
    void stopTimers() {
        for (HashedWheelTimer timer : timers) {
            timer.stop();
        }
    }

    /** Schedules a timeout that completes a future, to learn when the worker has swept past {@code delayMillis}. */
    private static CompletableFuture<Timeout> marker(Timer timer, long delayMillis) {
        CompletableFuture<Timeout> fired = new CompletableFuture<>();
        timer.newTimeout(fired::complete, delayMillis, TimeUnit.MILLISECONDS);
        return fired;
    }

    @Test
    void hundredThousandTimeoutsFromManyThreadsEachFireExactlyOnceAndNeverEarly() throws Exception {
        HashedWheelTimer timer = newTimer(HashedWheelTimer.builder().ticksPerWheel(64));
        int count = 100_000;
        long maxDelayMillis = 3_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(count);
        AtomicLongArray firedAt = new AtomicLongArray(count);
        long[] dueAt = new long[count];
        CountDownLatch allFired = new CountDownLatch(count);
        int threads = 4;
        ExecutorService schedulers = Executors.newFixedThreadPool(threads);
        try {
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int first = t;
                done.add(schedulers.submit(() -> {
                    SplittableRandom random = new SplittableRandom(first);
                    for (int i = first; i < count; i += threads) {
                        int id = i;
                        long delay = random.nextLong(maxDelayMillis);
                        dueAt[id] = ticker.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay);
                        timer.newTimeout(timeout -> {
                            firedAt.set(id, ticker.nanoTime());
                            runs.incrementAndGet(id);
                            allFired.countDown();
                        }, delay, TimeUnit.MILLISECONDS);
                    }
                }));
            }
            for (java.util.concurrent.Future<?> f : done) {
                f.get(WAIT_SECONDS, TimeUnit.SECONDS);
            }
        } finally {
            schedulers.shutdownNow();
        }
        assertThat(timer.pendingTimeouts()).isEqualTo(count);
        // Move time in uneven steps past the last deadline; the worker catches up tick by tick.
        for (long moved = 0; moved <= maxDelayMillis + 50; moved += 7) {
            ticker.advance(7, TimeUnit.MILLISECONDS);
        }
        assertThat(allFired.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        // Several more sweeps after the last expiry, so a timeout firing twice would be caught below.
        CompletableFuture<Timeout> last = marker(timer, 50);
        ticker.advance(60, TimeUnit.MILLISECONDS);
        last.get(WAIT_SECONDS, TimeUnit.SECONDS);
        for (int i = 0; i < count; i++) {
            assertThat(runs.get(i)).as("runs of timeout %s", i).isEqualTo(1);
            assertThat(firedAt.get(i)).as("timeout %s fired early", i).isGreaterThanOrEqualTo(dueAt[i]);
        }
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @Test
    void timeoutDoesNotFireBeforeItsDeadline() throws Exception {
        HashedWheelTimer timer = newTimer(HashedWheelTimer.builder());
        CompletableFuture<Timeout> later = marker(timer, 100);
        CompletableFuture<Timeout> sooner = marker(timer, 50);
        ticker.advance(60, TimeUnit.MILLISECONDS);
        Timeout fired = sooner.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(fired.isExpired()).isTrue();
        assertThat(later).isNotDone();
        ticker.advance(50, TimeUnit.MILLISECONDS);
        assertThat(later.get(WAIT_SECONDS, TimeUnit.SECONDS).isExpired()).isTrue();
    }

    @Test
    void cancelledTimeoutNeverRuns() throws Exception {
        HashedWheelTimer timer = newTimer(HashedWheelTimer.builder().ticksPerWheel(4));
        AtomicBoolean ran = new AtomicBoolean();
        Timeout timeout = timer.newTimeout(t -> ran.set(true), 30, TimeUnit.MILLISECONDS);
        // Let the worker place it in a bucket first, so cancellation has to unlink it there.
        // A timeout fires when the tick holding its deadline ends: the 10 ms marker at 20 ms, before 30 ms.
        CompletableFuture<Timeout> placed = marker(timer, 10);
        ticker.advance(25, TimeUnit.MILLISECONDS);
        placed.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(timer.pendingTimeouts()).isEqualTo(1);

        assertThat(timeout.cancel()).isTrue();
        assertThat(timeout.cancel()).isFalse();
        assertThat(timeout.isCancelled()).isTrue();
        assertThat(timeout.isExpired()).isFalse();
        assertThat(timer.pendingTimeouts()).isZero();
        Timeout queuedThenCancelled = timer.newTimeout(t -> ran.set(true), 0, TimeUnit.MILLISECONDS);
        queuedThenCancelled.cancel();

        CompletableFuture<Timeout> after = marker(timer, 200);
        ticker.advance(300, TimeUnit.MILLISECONDS);
        after.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(ran).isFalse();
        assertThat(timer.stop()).isEmpty();
    }

    @Test
    void maxPendingTimeoutsRejectsTheExcessUntilOneCompletes() {
        HashedWheelTimer timer = newTimer(HashedWheelTimer.builder().maxPendingTimeouts(2));
        Timeout first = timer.newTimeout(t -> { }, 1, TimeUnit.SECONDS);
        timer.newTimeout(t -> { }, 1, TimeUnit.SECONDS);
        assertThatThrownBy(() -> timer.newTimeout(t -> { }, 1, TimeUnit.SECONDS))
                .isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("maxPendingTimeouts (2)");
        assertThat(timer.pendingTimeouts()).isEqualTo(2);
        first.cancel();
        timer.newTimeout(t -> { }, 1, TimeUnit.SECONDS);
        assertThat(timer.pendingTimeouts()).isEqualTo(2);
    }

    @Test
    void stopReturnsTheTimeoutsThatHaveNotRunAndRefusesNewOnes() throws Exception {
        HashedWheelTimer timer = newTimer(HashedWheelTimer.builder());
        AtomicBoolean lateRan = new AtomicBoolean();
        CompletableFuture<Timeout> early = marker(timer, 10);
        Timeout late1 = timer.newTimeout(t -> lateRan.set(true), 1, TimeUnit.SECONDS);
        Timeout late2 = timer.newTimeout(t -> lateRan.set(true), 1, TimeUnit.HOURS);
        Timeout cancelled = timer.newTimeout(t -> lateRan.set(true), 1, TimeUnit.SECONDS);
        cancelled.cancel();
        ticker.advance(20, TimeUnit.MILLISECONDS);
        Timeout fired = early.get(WAIT_SECONDS, TimeUnit.SECONDS);

        Set<Timeout> unexpired = timer.stop();
        assertThat(unexpired).containsExactlyInAnyOrder(late1, late2).doesNotContain(fired, cancelled);
        assertThat(timer.stop()).containsExactlyInAnyOrder(late1, late2);
        ticker.advance(2, TimeUnit.HOURS);
        assertThat(lateRan).isFalse();
        assertThatThrownBy(() -> timer.newTimeout(t -> { }, 1, TimeUnit.SECONDS))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("stopped");
    }

    @Test
    void stopBeforeAnyTimeoutReturnsNothing() {
        HashedWheelTimer timer = newTimer(HashedWheelTimer.builder());
        assertThat(timer.stop()).isEmpty();
        assertThatThrownBy(() -> timer.newTimeout(t -> { }, 1, TimeUnit.SECONDS))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void stopFromATaskOnTheWorkerIsRefused() throws Exception {
        HashedWheelTimer timer = newTimer(HashedWheelTimer.builder());
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        timer.newTimeout(t -> {
            try {
                t.timer().stop();
                failure.complete(null);
            } catch (Throwable e) {
                failure.complete(e);
            }
        }, 10, TimeUnit.MILLISECONDS);
        ticker.advance(20, TimeUnit.MILLISECONDS);
        assertThat(failure.get(WAIT_SECONDS, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("worker");
    }

    @Test
    void tasksRunOnTheGivenExecutorAndAFailingTaskDoesNotStopOthers() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "timer-task-executor"));
        try {
            HashedWheelTimer timer = newTimer(HashedWheelTimer.builder().taskExecutor(executor));
            timer.newTimeout(t -> {
                throw new IllegalStateException("expected by the test");
            }, 10, TimeUnit.MILLISECONDS);
            CompletableFuture<String> thread = new CompletableFuture<>();
            timer.newTimeout(t -> thread.complete(Thread.currentThread().getName()), 10, TimeUnit.MILLISECONDS);
            ticker.advance(20, TimeUnit.MILLISECONDS);
            assertThat(thread.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("timer-task-executor");
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void workerRunsOnADaemonThreadByDefault() throws Exception {
        HashedWheelTimer timer = newTimer(HashedWheelTimer.builder());
        CompletableFuture<Thread> worker = new CompletableFuture<>();
        timer.newTimeout(t -> worker.complete(Thread.currentThread()), 0, TimeUnit.MILLISECONDS);
        ticker.advance(10, TimeUnit.MILLISECONDS);
        Thread thread = worker.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(thread.isDaemon()).isTrue();
        assertThat(thread.getName()).startsWith("hashedWheelTimer-");
        timer.stop();
        thread.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        assertThat(thread.isAlive()).isFalse();
    }

    @Test
    void fastThreadLocalsOfAPlainWorkerThreadAreRemovedOnStop() throws Exception {
        CompletableFuture<String> removed = new CompletableFuture<>();
        FastThreadLocal<String> local = new FastThreadLocal<>() {
            @Override
            protected void onRemoval(String value) {
                removed.complete(value);
            }
        };
        HashedWheelTimer timer = newTimer(HashedWheelTimer.builder().threadFactory(Thread::new));
        CompletableFuture<Void> set = new CompletableFuture<>();
        timer.newTimeout(t -> {
            local.set("value");
            set.complete(null);
        }, 0, TimeUnit.MILLISECONDS);
        ticker.advance(10, TimeUnit.MILLISECONDS);
        set.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(removed).isNotDone();
        timer.stop();
        assertThat(removed.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("value");
    }

    @Test
    void runningTimersAreCountedForTheTooManyInstancesWarning() {
        int before = HashedWheelTimer.runningInstances();
        HashedWheelTimer idle = newTimer(HashedWheelTimer.builder());
        HashedWheelTimer a = newTimer(HashedWheelTimer.builder());
        HashedWheelTimer b = newTimer(HashedWheelTimer.builder());
        a.newTimeout(t -> { }, 1, TimeUnit.SECONDS);
        b.newTimeout(t -> { }, 1, TimeUnit.SECONDS);
        // Only started timers hold a thread, so only they count.
        assertThat(HashedWheelTimer.runningInstances()).isEqualTo(before + 2);
        a.stop();
        b.stop();
        idle.stop();
        assertThat(HashedWheelTimer.runningInstances()).isEqualTo(before);
    }

    @Test
    void wheelSizeIsRoundedToAPowerOfTwoAndBadSettingsAreRejected() {
        assertThat(HashedWheelTimer.builder().ticksPerWheel(100).build().ticksPerWheel()).isEqualTo(128);
        assertThat(HashedWheelTimer.builder().ticksPerWheel(1).build().ticksPerWheel()).isEqualTo(1);
        assertThat(HashedWheelTimer.builder().tickDuration(1, TimeUnit.NANOSECONDS).build().tickDurationNanos())
                .isEqualTo(HashedWheelTimer.MIN_TICK_DURATION_NANOS);
        assertThatThrownBy(() -> HashedWheelTimer.builder().ticksPerWheel(0)).hasMessageContaining("ticksPerWheel: 0");
        assertThatThrownBy(() -> HashedWheelTimer.builder().tickDuration(-1, TimeUnit.SECONDS))
                .hasMessageContaining("tickDuration: -1");
        assertThatThrownBy(() -> HashedWheelTimer.builder().tickDuration(Long.MAX_VALUE / 2, TimeUnit.NANOSECONDS)
                .ticksPerWheel(1024).build()).isInstanceOf(IllegalArgumentException.class);
    }
}
