package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/** The contract on slices (of a direct buffer, at an offset), whose capacity is fixed. */
class SlicedByteBufTest extends AbstractByteBufTest {
    private static final int OFFSET = 8;

    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        ByteBuf parent = UnpooledByteBufAllocator.DEFAULT.directBuffer(capacity + 2 * OFFSET);
        return parent.slice(OFFSET, capacity).clear();
    }

    @Override
    boolean canGrow() {
        return false;
    }

    @Test
    void aSliceNeverChangesCapacityAndReportsItsParent() {
        ByteBuf slice = buffer();
        assertThat(slice.maxCapacity()).isEqualTo(CAPACITY);
        assertThatThrownBy(() -> slice.capacity(CAPACITY + 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(slice.unwrap().capacity()).isEqualTo(CAPACITY + 2 * OFFSET);
        slice.setByte(0, 5);
        assertThat(slice.unwrap().getByte(OFFSET)).isEqualTo((byte) 5);
        ByteBuf sliceOfSlice = slice.slice(4, 8);
        assertThat(sliceOfSlice.unwrap()).isSameAs(slice.unwrap());
    }

    @Test
    void shrinkingTheParentUnderASliceFencesTheSliceInsteadOfReachingFreedMemory() {
        // Documented: the fence against a parent shrunk under a view is a capacity check, off with checkBounds=false.
        assumeTrue(AbstractByteBuf.CHECK_BOUNDS, "capacity fences are not checked with checkBounds=false");
        ByteBuf parent = track(UnpooledByteBufAllocator.DEFAULT.directBuffer(64));
        ByteBuf slice = parent.slice(16, 32);
        parent.capacity(24);
        assertThat(slice.capacity()).isEqualTo(8);
        slice.setLong(0, 1);
        assertThatThrownBy(() -> slice.getLong(1)).isInstanceOf(IndexOutOfBoundsException.class);
        parent.capacity(8);
        assertThat(slice.capacity()).isZero();
        assertThatThrownBy(() -> slice.getByte(0)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
