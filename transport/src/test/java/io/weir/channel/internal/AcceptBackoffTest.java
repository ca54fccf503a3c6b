package io.weir.channel.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AcceptBackoffTest {

    @Test
    void aStreakOfAcceptFailuresDoublesThePauseUpToOneSecond() {
        AcceptBackoff backoff = new AcceptBackoff();
        long expected = AcceptBackoff.MIN_BACKOFF_NANOS;
        for (int i = 0; i < 12; i++) {
            assertThat(backoff.failed()).isEqualTo(expected);
            assertThat(backoff.isPaused()).isTrue();
            backoff.resume();
            assertThat(backoff.isPaused()).isFalse();
            expected = Math.min(expected * 2, AcceptBackoff.MAX_BACKOFF_NANOS);
        }
        assertThat(backoff.failed()).isEqualTo(AcceptBackoff.MAX_BACKOFF_NANOS);
        assertThat(backoff.failures()).isEqualTo(13);
    }

    @Test
    void anAcceptedConnectionEndsTheStreak() {
        AcceptBackoff backoff = new AcceptBackoff();
        backoff.failed();
        backoff.failed();
        backoff.resume();
        backoff.accepted();
        assertThat(backoff.failed()).isEqualTo(AcceptBackoff.MIN_BACKOFF_NANOS);
    }

    @Test
    void aStreakIsReportedOnceThenAtMostOncePerSecond() {
        AcceptBackoff backoff = new AcceptBackoff();
        long t0 = 1_000_000_000L;
        backoff.failed();
        assertThat(backoff.shouldReport(t0)).isTrue();
        backoff.failed();
        assertThat(backoff.shouldReport(t0 + AcceptBackoff.MIN_BACKOFF_NANOS)).isFalse();
        backoff.failed();
        assertThat(backoff.shouldReport(t0 + AcceptBackoff.MAX_BACKOFF_NANOS - 1)).isFalse();
        backoff.failed();
        assertThat(backoff.shouldReport(t0 + AcceptBackoff.MAX_BACKOFF_NANOS)).isTrue();
        // A new streak is reported at once, however soon it follows the last report.
        backoff.accepted();
        backoff.failed();
        assertThat(backoff.shouldReport(t0 + AcceptBackoff.MAX_BACKOFF_NANOS + 1)).isTrue();
    }
}
