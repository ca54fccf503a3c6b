package io.weir.util.concurrent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.util.ManualTicker;
import io.weir.util.Ticker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Scheduling on a {@link ManualTicker}: no test here waits for wall-clock time to pass. */
class ScheduledTaskTest {
    private static final long TIMEOUT_SECONDS = 10;

    private ManualTicker ticker;
    private DefaultEventExecutor executor;

    @BeforeEach
    void setUp() {
        ticker = Ticker.manual();
        executor = new DefaultEventExecutor(ticker);
    }

    @AfterEach
    void tearDown() throws Exception {
        executor.shutdownGracefully(0, 10, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    /** Runs on the executor after every task due at the current ticker time (same deadline, later in line). */
    private void barrier() throws Exception {
        executor.schedule(() -> { }, 0, TimeUnit.NANOSECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private int heapSize() throws Exception {
        return executor.submit(executor::scheduledTaskCount).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    @Test
    void taskRunsOnlyOnceTheTickerReachesItsDeadline() throws Exception {
        ScheduledFuture<String> future = executor.schedule(() -> "ran", 5, TimeUnit.SECONDS);
        ticker.advance(4, TimeUnit.SECONDS);
        barrier();
        assertThat(future.isDone()).isFalse();
        assertThat(future.getDelay(TimeUnit.SECONDS)).isEqualTo(1);

        ticker.advance(1, TimeUnit.SECONDS);
        assertThat(future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isEqualTo("ran");
        assertThat(future.getDelay(TimeUnit.NANOSECONDS)).isZero();
    }

    @Test
    void tasksRunInDeadlineOrderAndFifoForEqualDeadlines() throws Exception {
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        executor.schedule(() -> order.add("c@3"), 3, TimeUnit.SECONDS);
        executor.schedule(() -> order.add("a@1"), 1, TimeUnit.SECONDS);
        executor.schedule(() -> order.add("b1@2"), 2, TimeUnit.SECONDS);
        executor.schedule(() -> order.add("b2@2"), 2, TimeUnit.SECONDS);
        // Foreign schedules are taken in through the task queue; order is by deadline once they are in.
        barrier();
        ticker.advance(3, TimeUnit.SECONDS);
        barrier();
        assertThat(order).containsExactly("a@1", "b1@2", "b2@2", "c@3");
    }

    @Test
    void cancellingManyTasksInRandomOrderEmptiesTheQueueAndNoneRuns() throws Exception {
        int count = 5_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(count);
        List<ScheduledFuture<?>> futures = new ArrayList<>(count);
        Random random = new Random(1234);
        for (int i = 0; i < count; i++) {
            int id = i;
            futures.add(executor.schedule(() -> runs.incrementAndGet(id), 1 + random.nextInt(10_000),
                    TimeUnit.MILLISECONDS));
        }
        assertThat(heapSize()).isEqualTo(count);

        List<Integer> cancelOrder = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            cancelOrder.add(i);
        }
        Collections.shuffle(cancelOrder, random);
        // A third is cancelled on the executor itself, the rest from this thread.
        List<Integer> fromLoop = cancelOrder.subList(0, count / 3);
        List<Integer> fromOutside = cancelOrder.subList(count / 3, count);
        executor.submit(() -> {
            for (int id : fromLoop) {
                assertThat(futures.get(id).cancel(false)).isTrue();
            }
        }).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        for (int id : fromOutside) {
            assertThat(futures.get(id).cancel(false)).isTrue();
        }
        assertThat(heapSize()).isZero();

        ticker.advance(1, TimeUnit.HOURS);
        barrier();
        for (int i = 0; i < count; i++) {
            assertThat(runs.get(i)).as("run count of cancelled task %d", i).isZero();
            assertThat(futures.get(i).isCancelled()).isTrue();
        }
        assertThat(heapSize()).isZero();
    }

    @Test
    void onlyTheTasksThatWereNotCancelledRun() throws Exception {
        int count = 1_000;
        AtomicIntegerArray runs = new AtomicIntegerArray(count);
        List<ScheduledFuture<?>> futures = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int id = i;
            futures.add(executor.schedule(() -> runs.incrementAndGet(id), count - i, TimeUnit.MILLISECONDS));
        }
        for (int i = 0; i < count; i += 2) {
            futures.get(i).cancel(false);
        }
        ticker.advance(count, TimeUnit.MILLISECONDS);
        barrier();
        for (int i = 0; i < count; i++) {
            assertThat(runs.get(i)).as("runs of task %d", i).isEqualTo(i % 2 == 0 ? 0 : 1);
        }
        assertThat(heapSize()).isZero();
    }

    @Test
    void fixedRateCatchesUpOnMissedPeriods() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> future = executor.scheduleAtFixedRate(runs::incrementAndGet, 10, 10, TimeUnit.MILLISECONDS);
        barrier();
        assertThat(runs.get()).isZero();

        ticker.advance(10, TimeUnit.MILLISECONDS);
        barrier();
        assertThat(runs.get()).isEqualTo(1);

        // Deadlines 20, 30 and 40 are all due at 40.
        ticker.advance(30, TimeUnit.MILLISECONDS);
        barrier();
        assertThat(runs.get()).isEqualTo(4);

        assertThat(future.cancel(false)).isTrue();
        ticker.advance(100, TimeUnit.MILLISECONDS);
        barrier();
        assertThat(runs.get()).isEqualTo(4);
        assertThat(future.isCancelled()).isTrue();
        assertThat(heapSize()).isZero();
    }

    @Test
    void fixedDelayMeasuresFromTheEndOfTheLastRun() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> future = executor.scheduleWithFixedDelay(runs::incrementAndGet, 10, 10, TimeUnit.MILLISECONDS);
        ticker.advance(10, TimeUnit.MILLISECONDS);
        barrier();
        assertThat(runs.get()).isEqualTo(1);

        // Next deadline was 20; a late run at 40 pushes the following one to 50, with no catch-up.
        ticker.advance(30, TimeUnit.MILLISECONDS);
        barrier();
        assertThat(runs.get()).isEqualTo(2);

        ticker.advance(9, TimeUnit.MILLISECONDS);
        barrier();
        assertThat(runs.get()).isEqualTo(2);
        ticker.advance(1, TimeUnit.MILLISECONDS);
        barrier();
        assertThat(runs.get()).isEqualTo(3);
        future.cancel(false);
    }

    @Test
    void periodicTaskThatThrowsStopsAndFailsItsFuture() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> future = executor.scheduleAtFixedRate(() -> {
            if (runs.incrementAndGet() == 2) {
                throw new IllegalStateException("second run fails");
            }
        }, 1, 1, TimeUnit.SECONDS);
        ticker.advance(5, TimeUnit.SECONDS);
        barrier();
        assertThat(runs.get()).isEqualTo(2);
        assertThat(future.isDone()).isTrue();
        assertThat(future.cause()).hasMessage("second run fails");
        assertThat(heapSize()).isZero();
    }

    @Test
    void scheduleFromInsideTheLoopAndCancelFromOutside() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        ScheduledFuture<?> inner = executor.submit(
                () -> executor.schedule(runs::incrementAndGet, 1, TimeUnit.SECONDS)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(heapSize()).isEqualTo(1);
        assertThat(inner.cancel(false)).isTrue();
        assertThat(heapSize()).isZero();
        ticker.advance(2, TimeUnit.SECONDS);
        barrier();
        assertThat(runs.get()).isZero();
        assertThatThrownBy(inner::get).isInstanceOf(CancellationException.class);
    }

    @Test
    void concurrentScheduleAndCancelFromManyThreadsLeavesNothingBehind() throws Exception {
        int threads = 4;
        int perThread = 2_000;
        AtomicInteger ranCancelled = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long seed = t;
            Thread worker = new Thread(() -> {
                Random random = new Random(seed);
                List<ScheduledFuture<?>> mine = new ArrayList<>();
                for (int i = 0; i < perThread; i++) {
                    mine.add(executor.schedule(ranCancelled::incrementAndGet, 1 + random.nextInt(1000),
                            TimeUnit.SECONDS));
                    if (random.nextBoolean()) {
                        ScheduledFuture<?> victim = mine.remove(random.nextInt(mine.size()));
                        if (!victim.cancel(false)) {
                            failures.incrementAndGet();
                        }
                    }
                }
                for (ScheduledFuture<?> f : mine) {
                    if (!f.cancel(false)) {
                        failures.incrementAndGet();
                    }
                }
            });
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            worker.join(TIMEOUT_SECONDS * 1000);
        }
        assertThat(failures.get()).isZero();
        assertThat(heapSize()).isZero();
        ticker.advance(2_000, TimeUnit.SECONDS);
        barrier();
        assertThat(ranCancelled.get()).isZero();
    }

    @Test
    void invalidPeriodsAreRejectedWithTheValue() {
        assertThatThrownBy(() -> executor.scheduleAtFixedRate(() -> { }, 0, 0, TimeUnit.SECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("period: 0");
        assertThatThrownBy(() -> executor.scheduleWithFixedDelay(() -> { }, 0, -5, TimeUnit.SECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delay: -5");
    }

    @Test
    void scheduledTasksAreCancelledWhenTheExecutorShutsDown() throws Exception {
        ScheduledFuture<?> far = executor.schedule(() -> { }, 1, TimeUnit.DAYS);
        ScheduledFuture<?> periodic = executor.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.DAYS);
        barrier();
        executor.shutdownGracefully(0, 0, TimeUnit.SECONDS).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        assertThat(far.isCancelled()).isTrue();
        assertThat(periodic.isCancelled()).isTrue();
    }
}
