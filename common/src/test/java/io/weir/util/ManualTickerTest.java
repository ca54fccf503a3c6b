package io.weir.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    void systemTickerDoesNotPromiseAdvanceNotifications() {
        assertThat(Ticker.system().addAdvanceListener(() -> { })).isFalse();
    }

    @Test
    void negativeAdvanceIsRejectedWithTheValue() {
        assertThatThrownBy(() -> Ticker.manual().advance(-1, TimeUnit.SECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }
}
