package io.weir.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ManualTickerTest {

    @Test
    void advanceListenersSeeTheNewTimeAndCanBeRemoved() {
        ManualTicker ticker = Ticker.manual();
        AtomicInteger calls = new AtomicInteger();
        long[] seen = new long[1];
        Runnable listener = () -> {
            calls.incrementAndGet();
            seen[0] = ticker.nanoTime();
        };
        assertThat(ticker.addAdvanceListener(listener)).isTrue();
        ticker.advance(3, TimeUnit.SECONDS);
        assertThat(calls.get()).isEqualTo(1);
        assertThat(seen[0]).isEqualTo(TimeUnit.SECONDS.toNanos(3));

        ticker.removeAdvanceListener(listener);
        ticker.advance(1, TimeUnit.SECONDS);
        assertThat(calls.get()).isEqualTo(1);
    }

    @Test
    void sleepUntilIsAbsoluteSoAnAdvanceBeforeTheSleepIsNotLost() throws Exception {
        ManualTicker ticker = Ticker.manual();
        // A sleeper reads the time and computes its deadline; time moves before it goes to sleep.
        long deadline = ticker.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
        ticker.advance(10, TimeUnit.MILLISECONDS);
        CompletableFuture<Void> woke = CompletableFuture.runAsync(() -> {
            try {
                ticker.sleepUntil(deadline);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        woke.get(10, TimeUnit.SECONDS);
        assertThat(ticker.nanoTime()).isGreaterThanOrEqualTo(deadline);
    }

    @Test
    void sleepUntilWaitsForTheAdvanceThatReachesTheDeadline() throws Exception {
        ManualTicker ticker = Ticker.manual();
        long deadline = ticker.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
        CountDownLatch sleeping = new CountDownLatch(1);
        CompletableFuture<Long> woke = CompletableFuture.supplyAsync(() -> {
            sleeping.countDown();
            try {
                ticker.sleepUntil(deadline);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return ticker.nanoTime();
        });
        assertThat(sleeping.await(10, TimeUnit.SECONDS)).isTrue();
        ticker.advance(5, TimeUnit.MILLISECONDS);
        assertThat(woke).isNotDone();
        ticker.advance(5, TimeUnit.MILLISECONDS);
        assertThat(woke.get(10, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(deadline);
    }

    @Test
    void systemTickerDoesNotPromiseAdvanceNotifications() {
        assertThat(Ticker.system().addAdvanceListener(() -> { })).isFalse();
    }

    @Test
    void negativeAdvanceIsRejectedWithTheValue() {
        assertThatThrownBy(() -> Ticker.manual().advance(-1, TimeUnit.SECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }
}
