package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/** The contract on duplicates (of a heap buffer), which grow the buffer underneath. */
class DuplicatedByteBufTest extends AbstractByteBufTest {
    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        return UnpooledByteBufAllocator.DEFAULT.heapBuffer(capacity, maxCapacity).duplicate();
    }

    @Test
    void growingADuplicateGrowsTheBufferUnderneath() {
        ByteBuf duplicate = buffer(8);
        duplicate.writeBytes(new byte[20]);
        assertThat(duplicate.unwrap().capacity()).isEqualTo(duplicate.capacity()).isEqualTo(64);
        assertThat(duplicate.unwrap().writerIndex()).isZero();
    }

    @Test
    void readsOfADuplicateStopAtAParentThatShrankUnderIt() {
        // Documented: the fence against a parent shrunk under a view is a capacity check, off with checkBounds=false.
        assumeTrue(AbstractByteBuf.CHECK_BOUNDS, "capacity fences are not checked with checkBounds=false");
        ByteBuf parent = track(UnpooledByteBufAllocator.DEFAULT.directBuffer(64));
        parent.writeZero(64);
        ByteBuf duplicate = parent.duplicate();
        duplicate.readerIndex(16);
        parent.capacity(16);
        assertThat(duplicate.writerIndex()).isEqualTo(64);
        assertThatThrownBy(duplicate::readByte).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> duplicate.readBytes(new byte[4])).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(duplicate.readerIndex()).isEqualTo(16);
    }
}
