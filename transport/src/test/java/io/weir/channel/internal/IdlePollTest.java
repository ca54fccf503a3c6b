package io.weir.channel.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class IdlePollTest {
    private static final long MAX = 40_000;
    private static final long SHORT = 200_000;
    private static final long LONG = IdlePoll.SHORT_SLEEP_NANOS;

    /** A poll of the maximum length, reached from 0 by two short I/O-ended sleeps. */
    private static IdlePoll atMax() {
        IdlePoll poll = new IdlePoll(MAX);
        shortIoSleeps(poll, 2);
        assertThat(poll.nanos()).isEqualTo(MAX);
        return poll;
    }

    /** {@code count} sleeps that I/O ended well within the near-miss threshold. */
    private static void shortIoSleeps(IdlePoll poll, int count) {
        for (int i = 0; i < count; i++) {
            poll.sleepEnded(SHORT, true);
        }
    }

    @Test
    void startsOff() {
        assertThat(new IdlePoll(MAX).nanos()).isZero();
    }

    @Test
    void shortSleepsThatIoEndedGrowThePollToAQuarterThenFourfoldUpToTheMaximum() {
        IdlePoll poll = new IdlePoll(100_000);
        poll.sleepEnded(SHORT, true);
        assertThat(poll.nanos()).isEqualTo(25_000);
        poll.sleepEnded(SHORT, true);
        assertThat(poll.nanos()).isEqualTo(100_000);
    }

    @Test
    void sleepsThatLastedOrThatTimersAndTasksEndedHalveThePollThenTurnItOff() {
        IdlePoll poll = atMax();
        poll.sleepEnded(LONG, true);
        assertThat(poll.nanos()).isEqualTo(20_000);
        poll.sleepEnded(SHORT, false);
        assertThat(poll.nanos()).isEqualTo(10_000);
        poll.sleepEnded(10, false);
        assertThat(poll.nanos()).isEqualTo(5_000);
        poll.sleepEnded(LONG, false);
        poll.sleepEnded(LONG, false);
        assertThat(poll.nanos()).isEqualTo(1_250);
        poll.sleepEnded(LONG, false);
        assertThat(poll.nanos()).isZero();
    }

    @Test
    void aLoopWhoseIoArrivesRarelyNeverPolls() {
        IdlePoll poll = new IdlePoll(MAX);
        for (int i = 0; i < 100; i++) {
            poll.sleepEnded(LONG + i, true);
            assertThat(poll.nanos()).isZero();
        }
    }

    @Test
    void aMissAtTheMaximumTurnsThePollOffForACoolDownThatDoublesWithEachMiss() {
        IdlePoll poll = atMax();
        // First miss: off, but no cool-down; the next short sleep grows it again.
        poll.sleepEnded(SHORT, true);
        assertThat(poll.nanos()).isZero();
        poll.sleepEnded(SHORT, true);
        assertThat(poll.nanos()).isEqualTo(MAX / 4);
        poll.sleepEnded(SHORT, true);
        assertThat(poll.nanos()).isEqualTo(MAX);
        for (int coolDown = 1; coolDown <= 8; coolDown <<= 1) {
            poll.sleepEnded(SHORT, true);
            assertThat(poll.nanos()).as("missed again with cool-down " + coolDown).isZero();
            for (int i = 0; i < coolDown; i++) {
                poll.sleepEnded(SHORT, true);
                assertThat(poll.nanos()).as("short sleep " + i + " of cool-down " + coolDown).isZero();
            }
            shortIoSleeps(poll, 2);
            assertThat(poll.nanos()).isEqualTo(MAX);
        }
    }

    @Test
    void theCoolDownStopsGrowingAtItsCap() {
        IdlePoll poll = atMax();
        // Each cycle: a miss at the maximum, the cool-down it imposes, two sleeps to grow back.
        for (int coolDown = 0; coolDown < IdlePoll.MAX_COOL_DOWN; coolDown = coolDown == 0 ? 1 : coolDown << 1) {
            shortIoSleeps(poll, 1 + coolDown + 2);
            assertThat(poll.nanos()).isEqualTo(MAX);
        }
        for (int cycle = 0; cycle < 2; cycle++) {
            shortIoSleeps(poll, 1 + IdlePoll.MAX_COOL_DOWN);
            assertThat(poll.nanos()).as("cycle %d: still cooling down", cycle).isZero();
            shortIoSleeps(poll, 1);
            assertThat(poll.nanos()).as("cycle %d: cooled down", cycle).isEqualTo(MAX / 4);
            shortIoSleeps(poll, 1);
        }
    }

    @Test
    void aPollThatFindsReadinessMakesTheNextMissAFirstOneAgain() {
        IdlePoll poll = atMax();
        // A first miss, two sleeps to grow back, a second miss: off for a cool-down of 1.
        shortIoSleeps(poll, 4);
        assertThat(poll.nanos()).as("off for a cool-down of 1").isZero();
        // The cool-down, then two sleeps to grow back.
        shortIoSleeps(poll, 3);
        assertThat(poll.nanos()).isEqualTo(MAX);
        poll.found();
        // The next miss is a first one again: no cool-down.
        poll.sleepEnded(SHORT, true);
        assertThat(poll.nanos()).isZero();
        poll.sleepEnded(SHORT, true);
        assertThat(poll.nanos()).isEqualTo(MAX / 4);
    }

    @Test
    void aRunTeachesThePollBySleepIfItBlockedAndByFindingIfItsPollFoundWhatAHandleTook() {
        IdlePoll poll = new IdlePoll(MAX);
        poll.runEnded(SHORT, false, 1);
        assertThat(poll.nanos()).as("a short sleep that I/O ended").isEqualTo(MAX / 4);
        poll.runEnded(SHORT, false, 0);
        assertThat(poll.nanos()).as("a short sleep that no handle's readiness ended").isEqualTo(MAX / 8);
        poll.runEnded(-1, false, 3);
        assertThat(poll.nanos()).as("did not block, did not poll: nothing learned").isEqualTo(MAX / 8);

        IdlePoll found = atMax();
        // A first miss, two sleeps to grow back, a second miss: the third would impose a cool-down of 2.
        shortIoSleeps(found, 4);
        shortIoSleeps(found, 3);
        found.runEnded(-1, true, 0);
        found.sleepEnded(SHORT, true);
        assertThat(found.nanos()).as("readiness no handle took is no find: a third miss").isZero();
        shortIoSleeps(found, 2);
        assertThat(found.nanos()).as("cooling down for 2").isZero();
        shortIoSleeps(found, 2);
        assertThat(found.nanos()).isEqualTo(MAX);
        found.runEnded(-1, true, 1);
        found.sleepEnded(SHORT, true);
        shortIoSleeps(found, 1);
        assertThat(found.nanos()).as("after a find, the next miss is a first one: no cool-down").isEqualTo(MAX / 4);
    }

    @Test
    void aZeroMaximumTurnsPollingOffForGood() {
        IdlePoll poll = new IdlePoll(0);
        shortIoSleeps(poll, 2);
        assertThat(poll.nanos()).isZero();
    }

    @Test
    void aMaximumBelowTheMinimumIsStillTheLongestPoll() {
        IdlePoll poll = new IdlePoll(500);
        poll.sleepEnded(SHORT, true);
        assertThat(poll.nanos()).isEqualTo(500);
        poll.sleepEnded(LONG, true);
        assertThat(poll.nanos()).isZero();
    }

    @Test
    void negativeMaximumIsRefused() {
        assertThatThrownBy(() -> new IdlePoll(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
