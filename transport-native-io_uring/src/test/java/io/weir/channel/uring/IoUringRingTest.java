package io.weir.channel.uring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.util.platform.PlatformInfo;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The submission and completion rings over the mmapped memory, driven directly on the test's thread. */
class IoUringRingTest {
    private static final int ENTRIES = 8;

    @BeforeAll
    static void loadNatives() {
        assumeTrue(PlatformInfo.isLinux(), "io_uring exists only on Linux");
        IoUring.ensureAvailability();
    }

    private static boolean enqueueNop(SubmissionQueue sq, long userData) {
        return sq.enqueue(IoUringIoOps.OP_NOP, (byte) 0, (short) 0, -1, 0, 0, 0, 0, userData, (short) 0, 0, 0);
    }

    @Test
    void fullRingsOfNopsCompleteInOrderAcrossManyWrapsOfBothRings() throws Exception {
        // The CQ is as small as the SQ, so both indexes wrap every round.
        try (IoUringRing ring = IoUringRing.open(ENTRIES, ENTRIES, IoUring.setupFlags())) {
            SubmissionQueue sq = ring.submissions();
            CompletionQueue cq = ring.completions();
            assertThat(sq.entries()).isEqualTo(ENTRIES);
            assertThat(cq.entries()).isEqualTo(ENTRIES);
            List<Long> seen = new ArrayList<>();
            List<Long> expected = new ArrayList<>();
            long next = 1;
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < ENTRIES; i++) {
                    expected.add(next);
                    assertThat(enqueueNop(sq, next++)).isTrue();
                }
                assertThat(sq.isFull()).isTrue();
                assertThat(enqueueNop(sq, -1)).as("a full ring refuses").isFalse();
                assertThat(cq.hasCompletions()).as("nothing submitted before the enter").isFalse();

                int toSubmit = sq.flush();
                assertThat(toSubmit).isEqualTo(ENTRIES);
                int res = ring.enter(toSubmit, ENTRIES, Native.IORING_ENTER_GETEVENTS, -1);
                assertThat(res).isEqualTo(ENTRIES);
                assertThat(sq.pending()).isZero();
                assertThat(cq.process((userData, result, flags) -> {
                    assertThat(result).isZero();
                    seen.add(userData);
                })).isEqualTo(ENTRIES);
                assertThat(cq.hasCompletions()).isFalse();
            }
            assertThat(seen).containsExactlyElementsOf(expected);
            assertThat(cq.overflow()).isZero();
        }
    }

    @Test
    void waitWithATimeoutAndNothingInFlightEndsWithEtime() throws Exception {
        try (IoUringRing ring = IoUringRing.open(ENTRIES, ENTRIES * 2, IoUring.setupFlags())) {
            int res = ring.enter(0, 1, Native.IORING_ENTER_GETEVENTS, 1_000_000);
            assertThat(res).isEqualTo(-Native.ETIME);
            assertThat(ring.completions().hasCompletions()).isFalse();
        }
    }

    @Test
    void userDataCarriesRegistrationOpcodeAndDataBackUnchanged() {
        long userData = UserData.encode(0x7fff_fffe, IoUringIoOps.OP_SEND_ZC, (short) 0xbeef);
        assertThat(UserData.id(userData)).isEqualTo(0x7fff_fffe);
        assertThat(UserData.opcode(userData)).isEqualTo(IoUringIoOps.OP_SEND_ZC);
        assertThat(UserData.data(userData)).isEqualTo((short) 0xbeef);
        assertThat(UserData.isInternal(userData)).isFalse();
        assertThat(UserData.isInternal(userData | UserData.INTERNAL)).isTrue();
        assertThat(UserData.opcode(userData | UserData.INTERNAL)).isEqualTo(IoUringIoOps.OP_SEND_ZC);
        assertThat(UserData.id(UserData.encode(1, (byte) 0xff, (short) -1))).isEqualTo(1);
    }
}
