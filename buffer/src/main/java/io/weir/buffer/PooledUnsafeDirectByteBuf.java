package io.weir.buffer;

import io.weir.util.Recycler;
import io.weir.util.platform.MemoryAccess;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A pooled direct buffer reached by raw address through {@link MemoryAccess}, used when
 * {@link MemoryAccess#hasAddress()}. {@link #address} is the chunk's base address plus this buffer's offset;
 * every raw access is at {@code address + index} for an index that {@link AbstractByteBuf} checked against the
 * capacity (unless the user turned bounds checks off) on a buffer the accessibility check found live, so it
 * stays inside this buffer's slot of the chunk.
 */
final class PooledUnsafeDirectByteBuf extends PooledDirectByteBuf {
    private static final boolean NATIVE_LE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private static final Recycler<PooledUnsafeDirectByteBuf> RECYCLER = new Recycler<>() {
        @Override
        protected PooledUnsafeDirectByteBuf newObject(Handle<PooledUnsafeDirectByteBuf> handle) {
            return new PooledUnsafeDirectByteBuf(handle);
        }
    };

    private long address;

    private PooledUnsafeDirectByteBuf(Recycler.Handle<PooledUnsafeDirectByteBuf> handle) {
        super(handle);
    }

    static PooledUnsafeDirectByteBuf newInstance(int maxCapacity) {
        PooledUnsafeDirectByteBuf buf = RECYCLER.get();
        buf.reuse(maxCapacity);
        return buf;
    }

    @Override
    void memoryChanged(ByteBuffer memory) {
        super.memoryChanged(memory);
        address = MemoryAccess.directBufferAddress(buffer) + offset;
    }

    @Override
    public boolean hasMemoryAddress() {
        return true;
    }

    @Override
    public long memoryAddress() {
        ensureAccessible();
        return address;
    }

    // Each raw access below: the index was range-checked against this live buffer's capacity by the caller.

    @Override
    byte _getByte(int index) {
        return MemoryAccess.getByte(address + index);
    }

    @Override
    short _getShort(int index) {
        return MemoryAccess.getShortBE(address + index);
    }

    @Override
    short _getShortLE(int index) {
        short v = MemoryAccess.getShort(address + index);
        return NATIVE_LE ? v : Short.reverseBytes(v);
    }

    @Override
    int _getInt(int index) {
        return MemoryAccess.getIntBE(address + index);
    }

    @Override
    int _getIntLE(int index) {
        int v = MemoryAccess.getInt(address + index);
        return NATIVE_LE ? v : Integer.reverseBytes(v);
    }

    @Override
    long _getLong(int index) {
        return MemoryAccess.getLongBE(address + index);
    }

    @Override
    long _getLongLE(int index) {
        long v = MemoryAccess.getLong(address + index);
        return NATIVE_LE ? v : Long.reverseBytes(v);
    }

    @Override
    void _setByte(int index, int value) {
        MemoryAccess.putByte(address + index, (byte) value);
    }

    @Override
    void _setShort(int index, int value) {
        MemoryAccess.putShortBE(address + index, (short) value);
    }

    @Override
    void _setShortLE(int index, int value) {
        MemoryAccess.putShort(address + index, NATIVE_LE ? (short) value : Short.reverseBytes((short) value));
    }

    @Override
    void _setInt(int index, int value) {
        MemoryAccess.putIntBE(address + index, value);
    }

    @Override
    void _setIntLE(int index, int value) {
        MemoryAccess.putInt(address + index, NATIVE_LE ? value : Integer.reverseBytes(value));
    }

    @Override
    void _setLong(int index, long value) {
        MemoryAccess.putLongBE(address + index, value);
    }

    @Override
    void _setLongLE(int index, long value) {
        MemoryAccess.putLong(address + index, NATIVE_LE ? value : Long.reverseBytes(value));
    }

    @Override
    void _getBytes(int index, byte[] dst, int dstIndex, int length) {
        MemoryAccess.copyMemory(address + index, dst, dstIndex, length);
    }

    @Override
    void _setBytes(int index, byte[] src, int srcIndex, int length) {
        MemoryAccess.copyMemory(src, srcIndex, address + index, length);
    }

    @Override
    void _setZero(int index, int length) {
        MemoryAccess.setMemory(address + index, length, (byte) 0);
    }
}
