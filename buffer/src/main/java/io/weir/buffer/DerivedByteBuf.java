package io.weir.buffer;

import java.nio.ByteBuffer;

/**
 * A view onto another buffer's content at a fixed offset ({@code adjustment}), with its own reader and writer
 * indexes and no reference count of its own: {@code refCnt}, {@code retain} and {@code release} act on the
 * parent, so the view lives exactly as long as the parent does.
 */
abstract class DerivedByteBuf extends AbstractByteBuf {
    final AbstractByteBuf parent;
    final int adjustment;

    DerivedByteBuf(AbstractByteBuf parent, int adjustment) {
        this.parent = parent;
        this.adjustment = adjustment;
        this.indexesMayOutgrowCapacity = true;
    }

    @Override
    final boolean isAccessible() {
        return parent.isAccessible();
    }

    @Override
    public final int refCnt() {
        return parent.refCnt();
    }

    @Override
    public final ByteBuf retain() {
        parent.retain();
        return this;
    }

    @Override
    public final ByteBuf retain(int increment) {
        parent.retain(increment);
        return this;
    }

    @Override
    public final boolean release() {
        return parent.release();
    }

    @Override
    public final boolean release(int decrement) {
        return parent.release(decrement);
    }

    @Override
    public ByteBufAllocator alloc() {
        return parent.alloc();
    }

    @Override
    public ByteBuf unwrap() {
        return parent;
    }

    @Override
    public boolean isDirect() {
        return parent.isDirect();
    }

    @Override
    public boolean hasArray() {
        return parent.hasArray();
    }

    @Override
    public byte[] array() {
        return parent.array();
    }

    @Override
    public int arrayOffset() {
        return parent.arrayOffset() + adjustment;
    }

    @Override
    public boolean hasMemoryAddress() {
        return parent.hasMemoryAddress();
    }

    @Override
    public long memoryAddress() {
        return parent.memoryAddress() + adjustment;
    }

    @Override
    byte _getByte(int index) {
        return parent._getByte(index + adjustment);
    }

    @Override
    short _getShort(int index) {
        return parent._getShort(index + adjustment);
    }

    @Override
    short _getShortLE(int index) {
        return parent._getShortLE(index + adjustment);
    }

    @Override
    int _getUnsignedMedium(int index) {
        return parent._getUnsignedMedium(index + adjustment);
    }

    @Override
    int _getUnsignedMediumLE(int index) {
        return parent._getUnsignedMediumLE(index + adjustment);
    }

    @Override
    int _getInt(int index) {
        return parent._getInt(index + adjustment);
    }

    @Override
    int _getIntLE(int index) {
        return parent._getIntLE(index + adjustment);
    }

    @Override
    long _getLong(int index) {
        return parent._getLong(index + adjustment);
    }

    @Override
    long _getLongLE(int index) {
        return parent._getLongLE(index + adjustment);
    }

    @Override
    void _setByte(int index, int value) {
        parent._setByte(index + adjustment, value);
    }

    @Override
    void _setShort(int index, int value) {
        parent._setShort(index + adjustment, value);
    }

    @Override
    void _setShortLE(int index, int value) {
        parent._setShortLE(index + adjustment, value);
    }

    @Override
    void _setMedium(int index, int value) {
        parent._setMedium(index + adjustment, value);
    }

    @Override
    void _setMediumLE(int index, int value) {
        parent._setMediumLE(index + adjustment, value);
    }

    @Override
    void _setInt(int index, int value) {
        parent._setInt(index + adjustment, value);
    }

    @Override
    void _setIntLE(int index, int value) {
        parent._setIntLE(index + adjustment, value);
    }

    @Override
    void _setLong(int index, long value) {
        parent._setLong(index + adjustment, value);
    }

    @Override
    void _setLongLE(int index, long value) {
        parent._setLongLE(index + adjustment, value);
    }

    @Override
    void _getBytes(int index, byte[] dst, int dstIndex, int length) {
        parent._getBytes(index + adjustment, dst, dstIndex, length);
    }

    @Override
    void _getBytes(int index, ByteBuffer dst) {
        parent._getBytes(index + adjustment, dst);
    }

    @Override
    void _setBytes(int index, byte[] src, int srcIndex, int length) {
        parent._setBytes(index + adjustment, src, srcIndex, length);
    }

    @Override
    void _setBytes(int index, ByteBuffer src) {
        parent._setBytes(index + adjustment, src);
    }

    @Override
    void _setZero(int index, int length) {
        parent._setZero(index + adjustment, length);
    }

    @Override
    ByteBuffer _nioBuffer(int index, int length) {
        return parent._nioBuffer(index + adjustment, length);
    }

    /**
     * The parent's count: a view of a composite spans as many NIO buffers as the composite's components, so a
     * gathering write of the view is not forced through {@link #nioBuffer(int, int)}, which copies a range that
     * spans components onto the heap. Like the composite's own count, an upper bound for any sub-range.
     */
    @Override
    public int nioBufferCount() {
        return parent.nioBufferCount();
    }

    /** The parent's buffers for the same bytes (offset by {@code adjustment}), sharing their memory. */
    @Override
    public ByteBuffer[] nioBuffers(int index, int length) {
        checkIndex(index, length);
        return parent.nioBuffers(index + adjustment, length);
    }
}
