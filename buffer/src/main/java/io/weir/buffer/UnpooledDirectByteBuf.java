package io.weir.buffer;

import io.weir.util.platform.DirectMemory;
import io.weir.util.platform.MemoryAccess;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A buffer over a {@link ByteBuffer}, reached through {@link MemoryAccess}'s absolute ByteBuffer methods (the
 * ByteBuffer's position, limit and order are never used). Its own buffers come from
 * {@link DirectMemory#global()} without a Cleaner where possible and are freed on the last release; a wrapped
 * caller's buffer ({@link Unpooled#wrappedBuffer(ByteBuffer)}) is never freed, only dropped.
 */
class UnpooledDirectByteBuf extends AbstractReferenceCountedByteBuf {
    private static final boolean NATIVE_LE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    /** What a freed buffer points at: capacity 0, so a stray access fails instead of touching freed memory. */
    private static final ByteBuffer FREED = ByteBuffer.allocateDirect(0);

    private final ByteBufAllocator alloc;
    private final int maxCapacity;
    ByteBuffer buffer;
    /** A duplicate of {@link #internalViewSource}, reused by {@link #internalNioBuffer} while it is the memory. */
    private ByteBuffer internalView;
    private ByteBuffer internalViewSource;
    /** Whether {@link #buffer} came from {@link DirectMemory#global()} and must be handed back to it. */
    private boolean owned;

    /** A new buffer of {@code initialCapacity} bytes with unspecified content. */
    UnpooledDirectByteBuf(ByteBufAllocator alloc, int initialCapacity, int maxCapacity) {
        UnpooledHeapByteBuf.checkCapacities(initialCapacity, maxCapacity);
        this.alloc = alloc;
        this.maxCapacity = maxCapacity;
        this.buffer = DirectMemory.global().allocate(initialCapacity);
        this.owned = true;
        bufferChanged();
    }

    /**
     * A buffer over all of {@code wrapped} (from index 0 to its capacity; the caller passes a slice), which
     * stays the caller's: it is not freed on release.
     */
    UnpooledDirectByteBuf(ByteBufAllocator alloc, ByteBuffer wrapped, int maxCapacity) {
        UnpooledHeapByteBuf.checkCapacities(wrapped.capacity(), maxCapacity);
        this.alloc = alloc;
        this.maxCapacity = maxCapacity;
        this.buffer = wrapped;
        this.owned = false;
        bufferChanged();
    }

    /** Called whenever {@link #buffer} is replaced; subclasses cache what they derive from it. */
    void bufferChanged() {
    }

    @Override
    public int capacity() {
        return buffer.capacity();
    }

    @Override
    public ByteBuf capacity(int newCapacity) {
        checkNewCapacity(newCapacity);
        ByteBuffer old = buffer;
        if (newCapacity == old.capacity()) {
            return this;
        }
        if (owned) {
            buffer = DirectMemory.global().reallocate(old, newCapacity);
        } else {
            ByteBuffer copy = DirectMemory.global().allocate(newCapacity);
            MemoryAccess.copyMemory(old, 0, copy, 0, Math.min(old.capacity(), newCapacity));
            buffer = copy;
            owned = true;
        }
        bufferChanged();
        trimIndexesToCapacity(newCapacity);
        return this;
    }

    @Override
    public int maxCapacity() {
        return maxCapacity;
    }

    @Override
    public ByteBufAllocator alloc() {
        return alloc;
    }

    @Override
    public ByteBuf unwrap() {
        return null;
    }

    @Override
    public boolean isDirect() {
        return buffer.isDirect();
    }

    @Override
    public boolean hasArray() {
        return false;
    }

    @Override
    public byte[] array() {
        throw new UnsupportedOperationException("direct buffers have no backing array");
    }

    @Override
    public int arrayOffset() {
        throw new UnsupportedOperationException("direct buffers have no backing array");
    }

    @Override
    public boolean hasMemoryAddress() {
        return false;
    }

    @Override
    public long memoryAddress() {
        throw new UnsupportedOperationException("no memory address without Unsafe (MemoryAccess.hasAddress())");
    }

    @Override
    void deallocate() {
        ByteBuffer old = buffer;
        buffer = FREED;
        bufferChanged();
        if (owned) {
            owned = false;
            DirectMemory.global().free(old);
        }
    }

    @Override
    byte _getByte(int index) {
        return MemoryAccess.getByte(buffer, index);
    }

    @Override
    short _getShort(int index) {
        return MemoryAccess.getShortBE(buffer, index);
    }

    @Override
    short _getShortLE(int index) {
        short v = MemoryAccess.getShort(buffer, index);
        return NATIVE_LE ? v : Short.reverseBytes(v);
    }

    @Override
    int _getInt(int index) {
        return MemoryAccess.getIntBE(buffer, index);
    }

    @Override
    int _getIntLE(int index) {
        int v = MemoryAccess.getInt(buffer, index);
        return NATIVE_LE ? v : Integer.reverseBytes(v);
    }

    @Override
    long _getLong(int index) {
        return MemoryAccess.getLongBE(buffer, index);
    }

    @Override
    long _getLongLE(int index) {
        long v = MemoryAccess.getLong(buffer, index);
        return NATIVE_LE ? v : Long.reverseBytes(v);
    }

    @Override
    void _setByte(int index, int value) {
        MemoryAccess.putByte(buffer, index, (byte) value);
    }

    @Override
    void _setShort(int index, int value) {
        MemoryAccess.putShortBE(buffer, index, (short) value);
    }

    @Override
    void _setShortLE(int index, int value) {
        MemoryAccess.putShort(buffer, index, NATIVE_LE ? (short) value : Short.reverseBytes((short) value));
    }

    @Override
    void _setInt(int index, int value) {
        MemoryAccess.putIntBE(buffer, index, value);
    }

    @Override
    void _setIntLE(int index, int value) {
        MemoryAccess.putInt(buffer, index, NATIVE_LE ? value : Integer.reverseBytes(value));
    }

    @Override
    void _setLong(int index, long value) {
        MemoryAccess.putLongBE(buffer, index, value);
    }

    @Override
    void _setLongLE(int index, long value) {
        MemoryAccess.putLong(buffer, index, NATIVE_LE ? value : Long.reverseBytes(value));
    }

    @Override
    void _getBytes(int index, byte[] dst, int dstIndex, int length) {
        MemoryAccess.copyMemory(buffer, index, dst, dstIndex, length);
    }

    @Override
    void _getBytes(int index, ByteBuffer dst) {
        int length = dst.remaining();
        int position = dst.position();
        MemoryAccess.copyMemory(buffer, index, dst, position, length);
        dst.position(position + length);
    }

    @Override
    void _setBytes(int index, byte[] src, int srcIndex, int length) {
        MemoryAccess.copyMemory(src, srcIndex, buffer, index, length);
    }

    @Override
    void _setBytes(int index, ByteBuffer src) {
        int length = src.remaining();
        int position = src.position();
        MemoryAccess.copyMemory(src, position, buffer, index, length);
        src.position(position + length);
    }

    @Override
    void _setZero(int index, int length) {
        MemoryAccess.setMemory(buffer, index, length, (byte) 0);
    }

    @Override
    ByteBuffer _nioBuffer(int index, int length) {
        return buffer.slice(index, length);
    }

    @Override
    ByteBuffer _internalNioBuffer(int index, int length) {
        ByteBuffer view = internalView;
        if (view == null || internalViewSource != buffer) {
            internalViewSource = buffer;
            internalView = view = buffer.duplicate();
        }
        return rangeOf(view, index, length);
    }
}
