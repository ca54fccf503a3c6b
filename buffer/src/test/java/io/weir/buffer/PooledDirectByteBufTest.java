package io.weir.buffer;

/** The contract on pooled direct buffers, which share their chunk's ByteBuffer at an offset. */
class PooledDirectByteBufTest extends AbstractByteBufTest {
    private static final PooledByteBufAllocator ALLOC = new PooledByteBufAllocator(true, 0, 2, 8192, 1 << 20);

    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        return ALLOC.directBuffer(capacity, maxCapacity);
    }
}
