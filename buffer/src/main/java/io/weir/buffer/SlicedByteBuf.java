package io.weir.buffer;

/**
 * A fixed-size window {@code [adjustment, adjustment + length)} onto a buffer, sharing its content and reference
 * count. A slice of a slice or of a duplicate points straight at the buffer underneath, so nesting costs no
 * extra indirection.
 */
final class SlicedByteBuf extends DerivedByteBuf {
    private final int length;

    /** A slice of {@code [index, index + length)} of {@code buffer}, which the caller has range-checked. */
    SlicedByteBuf(AbstractByteBuf buffer, int index, int length) {
        super(root(buffer), adjustmentOf(buffer) + index);
        this.length = length;
        setIndex0(0, length);
    }

    private static AbstractByteBuf root(AbstractByteBuf buffer) {
        if (buffer instanceof SlicedByteBuf || buffer instanceof DuplicatedByteBuf) {
            return ((DerivedByteBuf) buffer).parent;
        }
        return buffer;
    }

    private static int adjustmentOf(AbstractByteBuf buffer) {
        return buffer instanceof SlicedByteBuf slice ? slice.adjustment : 0;
    }

    @Override
    public int capacity() {
        // Normally the slice's length; less if the parent was shrunk under the slice, so that bounds checks keep
        // every access inside the parent's current memory (a raw address past it could crash the JVM).
        return Math.max(0, Math.min(length, parent.capacity() - adjustment));
    }

    @Override
    public ByteBuf capacity(int newCapacity) {
        throw new UnsupportedOperationException("a slice's capacity is fixed: " + length);
    }

    @Override
    public int maxCapacity() {
        return length;
    }

    @Override
    public ByteBuf duplicate() {
        ensureAccessible();
        SlicedByteBuf duplicate = new SlicedByteBuf(parent, adjustment, length);
        duplicate.setIndex0(readerIndex(), writerIndex());
        return duplicate;
    }
}
