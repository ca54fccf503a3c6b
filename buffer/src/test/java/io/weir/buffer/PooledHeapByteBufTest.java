package io.weir.buffer;

/** The contract on pooled heap buffers, which share their chunk's array at an offset. */
class PooledHeapByteBufTest extends AbstractByteBufTest {
    private static final PooledByteBufAllocator ALLOC = new PooledByteBufAllocator(false, 2, 0, 8192, 1 << 20);

    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        return ALLOC.heapBuffer(capacity, maxCapacity);
    }
}
