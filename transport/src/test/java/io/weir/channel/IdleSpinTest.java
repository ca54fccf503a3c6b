package io.weir.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class IdleSpinTest {
    private static final long MIN = 1_000;
    private static final long MAX = 20_000;

    @Test
    void startsAtTheMinimum() {
        assertThat(new IdleSpin(MIN, MAX).nanos()).isEqualTo(MIN);
    }

    @Test
    void nearMissesDoubleTheWatchUpToTheMaximum() {
        IdleSpin spin = new IdleSpin(MIN, MAX);
        spin.sleepEnded(100);
        assertThat(spin.nanos()).isEqualTo(2_000);
        spin.sleepEnded(100);
        assertThat(spin.nanos()).isEqualTo(4_000);
        for (int i = 0; i < 10; i++) {
            spin.sleepEnded(100);
        }
        assertThat(spin.nanos()).isEqualTo(MAX);
    }

    @Test
    void aNearMissWellPastTheWatchJumpsToHalfAgainTheGap() {
        IdleSpin spin = new IdleSpin(MIN, MAX);
        spin.sleepEnded(10_000);
        assertThat(spin.nanos()).isEqualTo(15_000);
        spin.sleepEnded(MAX - 1);
        assertThat(spin.nanos()).isEqualTo(MAX);
    }

    @Test
    void longSleepsAndSleepsEndedByIoHalveTheWatchDownToTheMinimum() {
        IdleSpin spin = new IdleSpin(MIN, MAX);
        spin.sleepEnded(10_000);
        assertThat(spin.nanos()).isEqualTo(15_000);
        spin.sleepEnded(MAX);
        assertThat(spin.nanos()).isEqualTo(7_500);
        spin.sleepEnded(-1);
        assertThat(spin.nanos()).isEqualTo(3_750);
        for (int i = 0; i < 10; i++) {
            spin.sleepEnded(1_000_000);
        }
        assertThat(spin.nanos()).isEqualTo(MIN);
    }

    @Test
    void aSubmitterSlowerThanTheMaximumNeverGrowsIt() {
        IdleSpin spin = new IdleSpin(MIN, MAX);
        for (int i = 0; i < 100; i++) {
            spin.sleepEnded(50_000);
            assertThat(spin.nanos()).isEqualTo(MIN);
        }
    }

    @Test
    void aZeroMinimumTurnsWatchingOffForGood() {
        IdleSpin spin = new IdleSpin(0, MAX);
        spin.sleepEnded(100);
        spin.sleepEnded(5_000);
        assertThat(spin.nanos()).isZero();
    }

    @Test
    void aMaximumBelowTheMinimumPinsTheWatch() {
        IdleSpin spin = new IdleSpin(MIN, 10);
        spin.sleepEnded(5);
        assertThat(spin.nanos()).isEqualTo(MIN);
        spin.sleepEnded(-1);
        assertThat(spin.nanos()).isEqualTo(MIN);
    }

    @Test
    void aNegativeMinimumIsRefused() {
        assertThatThrownBy(() -> new IdleSpin(-1, MAX)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("minNanos");
    }

    @Test
    void aLoopWokenRightAfterItSleptWatchesLongerAndShrinksBackWhenWakeUpsComeLate() throws Exception {
        assumeTrue(SingleThreadIoEventLoop.IDLE_SPIN_NANOS > 0, "idle watch turned off for this run");
        long min = SingleThreadIoEventLoop.IDLE_SPIN_NANOS;
        SleepingIoHandler[] handler = new SleepingIoHandler[1];
        SingleThreadIoEventLoop loop = new SingleThreadIoEventLoop(null, (java.util.concurrent.Executor) null, l -> {
            handler[0] = new SleepingIoHandler();
            return handler[0];
        });
        try {
            loop.submit(() -> { }).get(10, TimeUnit.SECONDS);
            assertThat(loop.idleSpinNanos()).isEqualTo(min);
            // Woken the moment it sleeps: a near miss each time (unless this thread is descheduled meanwhile).
            for (int i = 0; i < 1_000 && loop.idleSpinNanos() == min; i++) {
                handler[0].awaitSleeping();
                runOn(loop);
            }
            assertThat(loop.idleSpinNanos()).isGreaterThan(min);
            // Woken milliseconds after it sleeps: the watch was wasted, it halves back to the minimum.
            for (int i = 0; i < 100 && loop.idleSpinNanos() > min; i++) {
                handler[0].awaitSleeping();
                // The delay is the stimulus here, not a wait for an event.
                Thread.sleep(2);
                runOn(loop);
            }
            assertThat(loop.idleSpinNanos()).isEqualTo(min);
        } finally {
            loop.shutdownGracefully(0, 10, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
        }
    }

    private static void runOn(SingleThreadIoEventLoop loop) throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        loop.execute(ran::countDown);
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
    }

    /** Blocks in {@link #run} whenever the loop allows it, until {@link #wakeup()}; handles no I/O. */
    private static final class SleepingIoHandler implements IoHandler {
        private final Semaphore wake = new Semaphore(0);
        private volatile boolean sleeping;

        @Override
        public int run(IoHandlerContext context) {
            if (context.canBlock()) {
                sleeping = true;
                try {
                    wake.tryAcquire(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                sleeping = false;
                wake.drainPermits();
            }
            return 0;
        }

        /** Spins (no parking, so the wake-up follows the sleep by microseconds) until the loop sleeps. */
        void awaitSleeping() {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (!sleeping) {
                assertThat(System.nanoTime() - deadline).as("loop went to sleep").isNegative();
                Thread.onSpinWait();
            }
        }

        @Override
        public void destroy() {
        }

        @Override
        public IoRegistration register(IoHandle handle) {
            throw new UnsupportedOperationException("no I/O in this test");
        }

        @Override
        public void wakeup() {
            wake.release();
        }

        @Override
        public boolean isCompatible(Class<? extends IoHandle> handleType) {
            return false;
        }
    }
}
