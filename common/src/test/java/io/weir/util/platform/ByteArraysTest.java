package io.weir.util.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ByteArraysTest {

    @Test
    void arraysHaveTheRequestedLengthOnBothSidesOfTheThreshold() {
        for (int size : new int[] {0, 1, ByteArrays.DEFAULT_UNINITIALIZED_THRESHOLD_BYTES - 1,
                ByteArrays.DEFAULT_UNINITIALIZED_THRESHOLD_BYTES, 1 << 16}) {
            byte[] array = ByteArrays.allocateUninitialized(size);
            assertThat(array).hasSize(size);
            java.util.Arrays.fill(array, (byte) 1);
            assertThat(array).containsOnly(size == 0 ? new byte[0] : new byte[] {1});
        }
    }

    @Test
    void smallArraysAreZeroed() {
        assertThat(ByteArrays.allocateUninitialized(ByteArrays.DEFAULT_UNINITIALIZED_THRESHOLD_BYTES - 1))
                .containsOnly(0);
    }

    @Test
    void negativeSizeIsRefused() {
        assertThatThrownBy(() -> ByteArrays.allocateUninitialized(-1)).isInstanceOf(NegativeArraySizeException.class);
        assertThatThrownBy(() -> ByteArrays.allocateUninitialized(-5000))
                .isInstanceOf(NegativeArraySizeException.class);
    }

    @Test
    void uninitializedAllocationIsOffWithoutTheExport() {
        // Surefire runs without --add-exports java.base/jdk.internal.misc, so the plain path must be chosen.
        assertThat(ByteArrays.isUninitializedAllocationAvailable()).isFalse();
    }
}
