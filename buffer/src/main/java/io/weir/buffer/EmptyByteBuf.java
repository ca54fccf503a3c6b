package io.weir.buffer;

/**
 * The shared capacity-0 buffer behind {@link Unpooled#EMPTY_BUFFER}. It holds no memory, so it is never freed:
 * {@code release} does nothing and returns {@code false}, {@code refCnt} stays 1. Every read and write of a byte
 * throws {@link IndexOutOfBoundsException}; its indexes are always 0, so sharing it between threads is safe.
 */
final class EmptyByteBuf extends UnpooledHeapByteBuf {

    EmptyByteBuf(ByteBufAllocator alloc) {
        super(alloc, new byte[0], 0);
    }

    @Override
    public int refCnt() {
        return 1;
    }

    @Override
    public ByteBuf retain() {
        return this;
    }

    @Override
    public ByteBuf retain(int increment) {
        if (increment <= 0) {
            throw new IllegalArgumentException("increment: " + increment + " (expected: > 0)");
        }
        return this;
    }

    @Override
    public boolean release() {
        return false;
    }

    @Override
    public boolean release(int decrement) {
        if (decrement <= 0) {
            throw new IllegalArgumentException("decrement: " + decrement + " (expected: > 0)");
        }
        return false;
    }
}
