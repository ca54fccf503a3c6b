package io.weir.buffer;

/**
 * The whole of a buffer with its own indexes (starting as copies of the buffer's), sharing content, capacity
 * and reference count; growing a duplicate grows the buffer underneath.
 */
final class DuplicatedByteBuf extends DerivedByteBuf {

    DuplicatedByteBuf(AbstractByteBuf buffer) {
        super(buffer instanceof DuplicatedByteBuf d ? d.parent : buffer, 0);
        setIndex0(buffer.readerIndex(), buffer.writerIndex());
    }

    @Override
    public int capacity() {
        return parent.capacity();
    }

    @Override
    public ByteBuf capacity(int newCapacity) {
        parent.capacity(newCapacity);
        trimIndexesToCapacity(newCapacity);
        return this;
    }

    @Override
    public int maxCapacity() {
        return parent.maxCapacity();
    }
}
