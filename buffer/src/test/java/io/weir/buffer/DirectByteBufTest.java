package io.weir.buffer;

/** The contract on direct buffers reached through ByteBuffer accessors. */
class DirectByteBufTest extends AbstractByteBufTest {
    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        return new UnpooledDirectByteBuf(UnpooledByteBufAllocator.DEFAULT, capacity, maxCapacity);
    }
}
