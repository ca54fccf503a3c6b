package io.weir.buffer;

/** The contract on heap buffers reached through VarHandles. */
class HeapByteBufTest extends AbstractByteBufTest {
    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        return new UnpooledHeapByteBuf(UnpooledByteBufAllocator.DEFAULT, capacity, maxCapacity);
    }
}
