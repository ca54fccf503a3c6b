package io.weir.channel.kqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.util.platform.PlatformInfo;
import org.junit.jupiter.api.Test;

/** What {@link KQueue} tells a user, with the library built (libkqueue prefix given) and without. */
class KQueueTest {

    @Test
    void availabilityAndItsCauseAgree() {
        if (KQueue.isAvailable()) {
            assertThat(KQueue.unavailabilityCause()).isNull();
            KQueue.ensureAvailability();
            // On Linux the only kqueue there is, is libkqueue's.
            assertThat(KQueue.isEmulated()).isEqualTo(PlatformInfo.isLinux());
        } else {
            assertThat(KQueue.unavailabilityCause()).isNotNull();
            assertThat(KQueue.isEmulated()).isFalse();
            assertThatThrownBy(KQueue::ensureAvailability).isInstanceOf(UnsatisfiedLinkError.class)
                    .hasCause(KQueue.unavailabilityCause());
        }
    }

    @Test
    void onLinuxWithoutLibKQueueTheCauseSaysHowToBuildIt() {
        org.junit.jupiter.api.Assumptions.assumeTrue(PlatformInfo.isLinux() && !KQueue.isAvailable(),
                "kqueue is available here");
        assertThat(KQueue.unavailabilityCause()).hasMessageContaining("-Dweir.libkqueue.prefix=");
    }
}
