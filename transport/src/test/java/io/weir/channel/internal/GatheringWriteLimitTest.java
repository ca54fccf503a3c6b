package io.weir.channel.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GatheringWriteLimitTest {
    private static final long CEILING = 1 << 20;

    @Test
    void startsAtTheInitialSize() {
        assertThat(new GatheringWriteLimit(CEILING).bytes()).isEqualTo(GatheringWriteLimit.INITIAL_BYTES);
    }

    @Test
    void aWriteTakenWholeDoublesUpToTheCeiling() {
        GatheringWriteLimit limit = new GatheringWriteLimit(CEILING);
        limit.adjust(GatheringWriteLimit.INITIAL_BYTES, GatheringWriteLimit.INITIAL_BYTES);
        assertThat(limit.bytes()).isEqualTo(2L * GatheringWriteLimit.INITIAL_BYTES);
        for (int i = 0; i < 10; i++) {
            limit.adjust(limit.bytes(), limit.bytes());
        }
        assertThat(limit.bytes()).isEqualTo(CEILING);
    }

    @Test
    void aSmallWriteTakenWholeDoesNotShrinkTheLimit() {
        GatheringWriteLimit limit = new GatheringWriteLimit(CEILING);
        limit.adjust(100, 100);
        assertThat(limit.bytes()).isGreaterThanOrEqualTo(GatheringWriteLimit.INITIAL_BYTES);
    }

    @Test
    void aLimitThatFellToTheMinimumGrowsBackOnceSmallWritesAreTakenWhole() {
        // A full socket halved it to the minimum; then each write offers a 9-byte frame header alone (its 16 KiB
        // payload does not fit under the limit) and the socket takes it: the limit must grow back.
        GatheringWriteLimit limit = new GatheringWriteLimit(CEILING);
        limit.bytes(GatheringWriteLimit.MIN_BYTES);
        limit.adjust(9, 9);
        assertThat(limit.bytes()).isEqualTo(2L * GatheringWriteLimit.MIN_BYTES);
        for (int i = 0; i < 3; i++) {
            limit.adjust(9, 9);
        }
        assertThat(limit.bytes()).as("past a 16 KiB frame").isGreaterThan(16 * 1024 + 9);
    }

    @Test
    void aWriteTakenLessThanHalfHalvesDownToTheMinimum() {
        GatheringWriteLimit limit = new GatheringWriteLimit(CEILING);
        limit.adjust(GatheringWriteLimit.INITIAL_BYTES, 10);
        assertThat(limit.bytes()).isEqualTo(GatheringWriteLimit.INITIAL_BYTES / 2);
        for (int i = 0; i < 20; i++) {
            limit.adjust(limit.bytes(), 0);
        }
        assertThat(limit.bytes()).isEqualTo(GatheringWriteLimit.MIN_BYTES);
        limit.adjust(GatheringWriteLimit.INITIAL_BYTES, GatheringWriteLimit.INITIAL_BYTES / 2 + 1);
        assertThat(limit.bytes()).isEqualTo(GatheringWriteLimit.MIN_BYTES);
    }

    @Test
    void anExplicitSizeStaysWithinTheBounds() {
        GatheringWriteLimit limit = new GatheringWriteLimit(CEILING);
        limit.bytes(1);
        assertThat(limit.bytes()).isEqualTo(GatheringWriteLimit.MIN_BYTES);
        limit.bytes(Long.MAX_VALUE);
        assertThat(limit.bytes()).isEqualTo(CEILING);
        assertThatThrownBy(() -> new GatheringWriteLimit(GatheringWriteLimit.MIN_BYTES - 1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
