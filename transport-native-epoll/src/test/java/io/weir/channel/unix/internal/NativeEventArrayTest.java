package io.weir.channel.unix.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.weir.channel.epoll.Epoll;
import io.weir.util.platform.PlatformInfo;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The event array the native I/O handlers share: bounded growth, fresh zeroed memory. The epoll library registers
 * the native that finds a direct buffer's address.
 */
class NativeEventArrayTest {

    @BeforeAll
    static void loadNatives() {
        Assumptions.assumeTrue(PlatformInfo.isLinux(), "epoll exists only on Linux");
        Epoll.ensureAvailability();
    }

    @Test
    void growsByDoublingAndStopsAtItsMaximum() {
        NativeEventArray array = new NativeEventArray(12, 3, 10);
        long first = array.memoryAddress();
        assertThat(array.increase()).isTrue();
        assertThat(array.length()).isEqualTo(6);
        assertThat(array.memoryAddress()).as("a new array, not the old one reused").isNotEqualTo(first);
        assertThat(array.increase()).isTrue();
        assertThat(array.length()).isEqualTo(10);
        assertThat(array.increase()).isFalse();
        assertThat(array.length()).isEqualTo(10);
    }

    @Test
    void recordsOfAFreshArrayReadAsZero() {
        NativeEventArray array = new NativeEventArray(16, 4, 4);
        assertThat(array.getInt(3, 12)).isZero();
        assertThat(array.getLong(3, 8)).isZero();
        assertThat(array.getShort(0, 0)).isZero();
    }

    @Test
    void lengthOutsideOneToTheMaximumIsRejectedWithTheValue() {
        assertThatIllegalArgumentException().isThrownBy(() -> new NativeEventArray(12, 0, 10))
                .withMessageContaining("length: 0");
        assertThatIllegalArgumentException().isThrownBy(() -> new NativeEventArray(12, 11, 10))
                .withMessageContaining("length: 11");
        assertThatIllegalArgumentException().isThrownBy(() -> new NativeEventArray(0, 1, 10))
                .withMessageContaining("entryBytes: 0");
    }
}
