package io.weir.buffer;

import io.weir.util.platform.MemoryAccess;
import java.nio.ByteOrder;

/**
 * A heap buffer whose multi-byte accesses go through {@link MemoryAccess} (Unsafe on the array), used when
 * {@link io.weir.util.platform.PlatformInfo#hasUnsafe()}. {@link MemoryAccess} checks the array bounds on
 * every path, so this kind is as safe as {@link UnpooledHeapByteBuf} even with bounds checks off.
 */
final class UnpooledUnsafeHeapByteBuf extends UnpooledHeapByteBuf {
    private static final boolean NATIVE_LE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    UnpooledUnsafeHeapByteBuf(ByteBufAllocator alloc, int initialCapacity, int maxCapacity) {
        super(alloc, initialCapacity, maxCapacity);
    }

    /** A buffer over {@code array} (not copied). */
    UnpooledUnsafeHeapByteBuf(ByteBufAllocator alloc, byte[] array, int maxCapacity) {
        super(alloc, array, maxCapacity);
    }

    @Override
    byte _getByte(int index) {
        return MemoryAccess.getByte(array, index);
    }

    @Override
    short _getShort(int index) {
        return MemoryAccess.getShortBE(array, index);
    }

    @Override
    short _getShortLE(int index) {
        short v = MemoryAccess.getShort(array, index);
        return NATIVE_LE ? v : Short.reverseBytes(v);
    }

    @Override
    int _getInt(int index) {
        return MemoryAccess.getIntBE(array, index);
    }

    @Override
    int _getIntLE(int index) {
        int v = MemoryAccess.getInt(array, index);
        return NATIVE_LE ? v : Integer.reverseBytes(v);
    }

    @Override
    long _getLong(int index) {
        return MemoryAccess.getLongBE(array, index);
    }

    @Override
    long _getLongLE(int index) {
        long v = MemoryAccess.getLong(array, index);
        return NATIVE_LE ? v : Long.reverseBytes(v);
    }

    @Override
    void _setByte(int index, int value) {
        MemoryAccess.putByte(array, index, (byte) value);
    }

    @Override
    void _setShort(int index, int value) {
        MemoryAccess.putShortBE(array, index, (short) value);
    }

    @Override
    void _setShortLE(int index, int value) {
        MemoryAccess.putShort(array, index, NATIVE_LE ? (short) value : Short.reverseBytes((short) value));
    }

    @Override
    void _setInt(int index, int value) {
        MemoryAccess.putIntBE(array, index, value);
    }

    @Override
    void _setIntLE(int index, int value) {
        MemoryAccess.putInt(array, index, NATIVE_LE ? value : Integer.reverseBytes(value));
    }

    @Override
    void _setLong(int index, long value) {
        MemoryAccess.putLongBE(array, index, value);
    }

    @Override
    void _setLongLE(int index, long value) {
        MemoryAccess.putLong(array, index, NATIVE_LE ? value : Long.reverseBytes(value));
    }

    @Override
    void _setZero(int index, int length) {
        MemoryAccess.setMemory(array, index, length, (byte) 0);
    }
}
