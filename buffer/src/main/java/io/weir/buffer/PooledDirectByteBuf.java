package io.weir.buffer;

import io.weir.util.Recycler;
import io.weir.util.platform.MemoryAccess;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A pooled buffer over a slot of a direct {@code ByteBuffer} chunk, reached through {@link MemoryAccess}'s
 * absolute ByteBuffer methods (the chunk's position, limit and order are never used, so buffers sharing the
 * chunk do not disturb each other).
 */
class PooledDirectByteBuf extends PooledByteBuf<ByteBuffer> {
    private static final boolean NATIVE_LE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final ByteBuffer FREED = ByteBuffer.allocateDirect(0);

    private static final Recycler<PooledDirectByteBuf> RECYCLER = new Recycler<>() {
        @Override
        protected PooledDirectByteBuf newObject(Handle<PooledDirectByteBuf> handle) {
            return new PooledDirectByteBuf(handle);
        }
    };

    ByteBuffer buffer = FREED;
    /** A duplicate of the whole chunk, reused by {@link #internalNioBuffer}; dropped when the chunk changes. */
    private ByteBuffer internalView;

    PooledDirectByteBuf(Recycler.Handle<? extends PooledDirectByteBuf> handle) {
        super(handle);
    }

    static PooledDirectByteBuf newInstance(int maxCapacity) {
        PooledDirectByteBuf buf = RECYCLER.get();
        buf.reuse(maxCapacity);
        return buf;
    }

    @Override
    void memoryChanged(ByteBuffer memory) {
        ByteBuffer now = memory == null ? FREED : memory;
        if (now != buffer) {
            internalView = null;
        }
        buffer = now;
    }

    @Override
    public boolean isDirect() {
        return true;
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
    byte _getByte(int index) {
        return MemoryAccess.getByte(buffer, offset + index);
    }

    @Override
    short _getShort(int index) {
        return MemoryAccess.getShortBE(buffer, offset + index);
    }

    @Override
    short _getShortLE(int index) {
        short v = MemoryAccess.getShort(buffer, offset + index);
        return NATIVE_LE ? v : Short.reverseBytes(v);
    }

    @Override
    int _getInt(int index) {
        return MemoryAccess.getIntBE(buffer, offset + index);
    }

    @Override
    int _getIntLE(int index) {
        int v = MemoryAccess.getInt(buffer, offset + index);
        return NATIVE_LE ? v : Integer.reverseBytes(v);
    }

    @Override
    long _getLong(int index) {
        return MemoryAccess.getLongBE(buffer, offset + index);
    }

    @Override
    long _getLongLE(int index) {
        long v = MemoryAccess.getLong(buffer, offset + index);
        return NATIVE_LE ? v : Long.reverseBytes(v);
    }

    @Override
    void _setByte(int index, int value) {
        MemoryAccess.putByte(buffer, offset + index, (byte) value);
    }

    @Override
    void _setShort(int index, int value) {
        MemoryAccess.putShortBE(buffer, offset + index, (short) value);
    }

    @Override
    void _setShortLE(int index, int value) {
        MemoryAccess.putShort(buffer, offset + index, NATIVE_LE ? (short) value : Short.reverseBytes((short) value));
    }

    @Override
    void _setInt(int index, int value) {
        MemoryAccess.putIntBE(buffer, offset + index, value);
    }

    @Override
    void _setIntLE(int index, int value) {
        MemoryAccess.putInt(buffer, offset + index, NATIVE_LE ? value : Integer.reverseBytes(value));
    }

    @Override
    void _setLong(int index, long value) {
        MemoryAccess.putLongBE(buffer, offset + index, value);
    }

    @Override
    void _setLongLE(int index, long value) {
        MemoryAccess.putLong(buffer, offset + index, NATIVE_LE ? value : Long.reverseBytes(value));
    }

    @Override
    void _getBytes(int index, byte[] dst, int dstIndex, int length) {
        MemoryAccess.copyMemory(buffer, offset + index, dst, dstIndex, length);
    }

    @Override
    void _getBytes(int index, ByteBuffer dst) {
        int length = dst.remaining();
        int position = dst.position();
        MemoryAccess.copyMemory(buffer, offset + index, dst, position, length);
        dst.position(position + length);
    }

    @Override
    void _setBytes(int index, byte[] src, int srcIndex, int length) {
        MemoryAccess.copyMemory(src, srcIndex, buffer, offset + index, length);
    }

    @Override
    void _setBytes(int index, ByteBuffer src) {
        int length = src.remaining();
        int position = src.position();
        MemoryAccess.copyMemory(src, position, buffer, offset + index, length);
        src.position(position + length);
    }

    @Override
    void _setZero(int index, int length) {
        MemoryAccess.setMemory(buffer, offset + index, length, (byte) 0);
    }

    @Override
    ByteBuffer _nioBuffer(int index, int length) {
        return buffer.slice(offset + index, length);
    }

    @Override
    ByteBuffer _internalNioBuffer(int index, int length) {
        ByteBuffer view = internalView;
        if (view == null) {
            internalView = view = buffer.duplicate();
        }
        return rangeOf(view, offset + index, length);
    }
}
