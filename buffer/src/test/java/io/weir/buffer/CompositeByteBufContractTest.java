package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The contract on a composite of several components of mixed kinds (heap, direct, a slice of a larger heap
 * buffer) with odd sizes, so that multi-byte accesses straddle component boundaries; growth adds components.
 */
class CompositeByteBufContractTest extends AbstractByteBufTest {
    private static final int[] PART_SIZES = {3, 7, 5, 13, 1, 11};
    private static final int SLICE_OFFSET = 5;

    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        ByteBufAllocator alloc = UnpooledByteBufAllocator.DEFAULT;
        CompositeByteBuf composite = new CompositeByteBuf(alloc, true, CompositeByteBuf.DEFAULT_MAX_NUM_COMPONENTS,
                maxCapacity);
        int remaining = capacity;
        for (int i = 0; remaining > 0; i++) {
            int size = Math.min(remaining, PART_SIZES[i % PART_SIZES.length]);
            ByteBuf part = switch (i % 3) {
                case 0 -> alloc.heapBuffer(size).writerIndex(size);
                case 1 -> alloc.directBuffer(size).writerIndex(size);
                default -> alloc.heapBuffer(size + 2 * SLICE_OFFSET).slice(SLICE_OFFSET, size);
            };
            composite.addComponent(part);
            remaining -= size;
        }
        return composite;
    }

    /**
     * Replaces the single-buffer version: a composite offers one ByteBuffer per component, and
     * {@code nioBuffer()} shares the content only when the range lies in one component (else it is a copy).
     */
    @Override
    @Test
    void nioBufferSharesTheContentWithoutMovingIndexes() {
        ByteBuf buf = buffer();
        buf.writeInt(0x01020304).writeInt(0x05060708).skipBytes(2);
        // Components of 3, 7, 5, ... bytes: [2, 8) spans the first two.
        ByteBuffer[] parts = buf.nioBuffers();
        assertThat(parts).hasSize(2);
        assertThat(parts[0].remaining()).isEqualTo(1);
        assertThat(parts[1].remaining()).isEqualTo(5);
        parts[1].put(0, (byte) 99);
        assertThat(buf.getByte(3)).isEqualTo((byte) 99);
        ByteBuffer copy = buf.nioBuffer();
        assertThat(copy.remaining()).isEqualTo(6);
        assertThat(copy.getInt(2)).isEqualTo(0x05060708);
        ByteBuffer shared = buf.nioBuffer(4, 4);
        shared.put(0, (byte) 42);
        assertThat(buf.getByte(4)).isEqualTo((byte) 42);
        assertThat(buf.readerIndex()).isEqualTo(2);
    }
}
