package io.weir.buffer;

import io.weir.util.Recycler;
import io.weir.util.platform.MemoryAccess;
import java.nio.ByteOrder;

/**
 * A pooled heap buffer whose multi-byte accesses go through {@link MemoryAccess} (Unsafe on the chunk's array),
 * used when {@link io.weir.util.platform.PlatformInfo#hasUnsafe()}. {@link MemoryAccess} checks the array
 * bounds on every path, so even with bounds checks off an access cannot leave the chunk's array.
 */
final class PooledUnsafeHeapByteBuf extends PooledHeapByteBuf {
    private static final boolean NATIVE_LE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private static final Recycler<PooledUnsafeHeapByteBuf> RECYCLER = new Recycler<>() {
        @Override
        protected PooledUnsafeHeapByteBuf newObject(Handle<PooledUnsafeHeapByteBuf> handle) {
            return new PooledUnsafeHeapByteBuf(handle);
        }
    };

    private PooledUnsafeHeapByteBuf(Recycler.Handle<PooledUnsafeHeapByteBuf> handle) {
        super(handle);
    }

    static PooledUnsafeHeapByteBuf newInstance(int maxCapacity) {
        PooledUnsafeHeapByteBuf buf = RECYCLER.get();
        buf.reuse(maxCapacity);
        return buf;
    }

    @Override
    byte _getByte(int index) {
        return MemoryAccess.getByte(array, offset + index);
    }

    @Override
    short _getShort(int index) {
        return MemoryAccess.getShortBE(array, offset + index);
    }

    @Override
    short _getShortLE(int index) {
        short v = MemoryAccess.getShort(array, offset + index);
        return NATIVE_LE ? v : Short.reverseBytes(v);
    }

    @Override
    int _getInt(int index) {
        return MemoryAccess.getIntBE(array, offset + index);
    }

    @Override
    int _getIntLE(int index) {
        int v = MemoryAccess.getInt(array, offset + index);
        return NATIVE_LE ? v : Integer.reverseBytes(v);
    }

    @Override
    long _getLong(int index) {
        return MemoryAccess.getLongBE(array, offset + index);
    }

    @Override
    long _getLongLE(int index) {
        long v = MemoryAccess.getLong(array, offset + index);
        return NATIVE_LE ? v : Long.reverseBytes(v);
    }

    @Override
    void _setByte(int index, int value) {
        MemoryAccess.putByte(array, offset + index, (byte) value);
    }

    @Override
    void _setShort(int index, int value) {
        MemoryAccess.putShortBE(array, offset + index, (short) value);
    }

    @Override
    void _setShortLE(int index, int value) {
        MemoryAccess.putShort(array, offset + index, NATIVE_LE ? (short) value : Short.reverseBytes((short) value));
    }

    @Override
    void _setInt(int index, int value) {
        MemoryAccess.putIntBE(array, offset + index, value);
    }

    @Override
    void _setIntLE(int index, int value) {
        MemoryAccess.putInt(array, offset + index, NATIVE_LE ? value : Integer.reverseBytes(value));
    }

    @Override
    void _setLong(int index, long value) {
        MemoryAccess.putLongBE(array, offset + index, value);
    }

    @Override
    void _setLongLE(int index, long value) {
        MemoryAccess.putLong(array, offset + index, NATIVE_LE ? value : Long.reverseBytes(value));
    }

    @Override
    void _setZero(int index, int length) {
        MemoryAccess.setMemory(array, offset + index, length, (byte) 0);
    }
}
