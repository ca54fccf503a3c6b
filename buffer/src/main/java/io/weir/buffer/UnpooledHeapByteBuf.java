package io.weir.buffer;

import io.weir.util.platform.ByteArrays;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A heap buffer over a {@code byte[]} it owns (or, for {@link Unpooled#wrappedBuffer(byte[])}, shares with the
 * caller), reading multi-byte values through byte-array view VarHandles. Freeing drops the array for the
 * garbage collector.
 */
class UnpooledHeapByteBuf extends AbstractReferenceCountedByteBuf {
    private static final byte[] EMPTY_BYTES = {};
    private static final VarHandle SHORT_BE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle SHORT_LE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final ByteBufAllocator alloc;
    private final int maxCapacity;
    byte[] array;
    /** A wrapper of {@link #internalViewSource}, reused by {@link #internalNioBuffer} while it is the array. */
    private ByteBuffer internalView;
    private byte[] internalViewSource;

    /** A new buffer of {@code initialCapacity} bytes with unspecified content. */
    UnpooledHeapByteBuf(ByteBufAllocator alloc, int initialCapacity, int maxCapacity) {
        this(alloc, ByteArrays.allocateUninitialized(checkCapacities(initialCapacity, maxCapacity)), maxCapacity);
    }

    /** A buffer over {@code array} (not copied), writer index at its end. */
    UnpooledHeapByteBuf(ByteBufAllocator alloc, byte[] array, int maxCapacity) {
        checkCapacities(array.length, maxCapacity);
        this.alloc = alloc;
        this.array = array;
        this.maxCapacity = maxCapacity;
    }

    static int checkCapacities(int initialCapacity, int maxCapacity) {
        if (initialCapacity < 0 || initialCapacity > maxCapacity) {
            throw new IllegalArgumentException("initialCapacity: " + initialCapacity + ", maxCapacity: "
                    + maxCapacity + " (expected: 0 <= initialCapacity <= maxCapacity)");
        }
        return initialCapacity;
    }

    @Override
    public int capacity() {
        return array.length;
    }

    @Override
    public ByteBuf capacity(int newCapacity) {
        checkNewCapacity(newCapacity);
        byte[] old = array;
        if (newCapacity != old.length) {
            byte[] grown = ByteArrays.allocateUninitialized(newCapacity);
            System.arraycopy(old, 0, grown, 0, Math.min(old.length, newCapacity));
            array = grown;
            trimIndexesToCapacity(newCapacity);
        }
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
        return false;
    }

    @Override
    public boolean hasArray() {
        return true;
    }

    @Override
    public byte[] array() {
        ensureAccessible();
        return array;
    }

    @Override
    public int arrayOffset() {
        return 0;
    }

    @Override
    public boolean hasMemoryAddress() {
        return false;
    }

    @Override
    public long memoryAddress() {
        throw new UnsupportedOperationException("heap buffers have no memory address");
    }

    @Override
    void deallocate() {
        // A stray access after the free (with bounds checks off) then fails instead of reading old content.
        array = EMPTY_BYTES;
    }

    @Override
    byte _getByte(int index) {
        return array[index];
    }

    @Override
    short _getShort(int index) {
        return (short) SHORT_BE.get(array, index);
    }

    @Override
    short _getShortLE(int index) {
        return (short) SHORT_LE.get(array, index);
    }

    @Override
    int _getInt(int index) {
        return (int) INT_BE.get(array, index);
    }

    @Override
    int _getIntLE(int index) {
        return (int) INT_LE.get(array, index);
    }

    @Override
    long _getLong(int index) {
        return (long) LONG_BE.get(array, index);
    }

    @Override
    long _getLongLE(int index) {
        return (long) LONG_LE.get(array, index);
    }

    @Override
    void _setByte(int index, int value) {
        array[index] = (byte) value;
    }

    @Override
    void _setShort(int index, int value) {
        SHORT_BE.set(array, index, (short) value);
    }

    @Override
    void _setShortLE(int index, int value) {
        SHORT_LE.set(array, index, (short) value);
    }

    @Override
    void _setInt(int index, int value) {
        INT_BE.set(array, index, value);
    }

    @Override
    void _setIntLE(int index, int value) {
        INT_LE.set(array, index, value);
    }

    @Override
    void _setLong(int index, long value) {
        LONG_BE.set(array, index, value);
    }

    @Override
    void _setLongLE(int index, long value) {
        LONG_LE.set(array, index, value);
    }

    @Override
    void _getBytes(int index, byte[] dst, int dstIndex, int length) {
        System.arraycopy(array, index, dst, dstIndex, length);
    }

    @Override
    void _getBytes(int index, ByteBuffer dst) {
        dst.put(array, index, dst.remaining());
    }

    @Override
    void _setBytes(int index, byte[] src, int srcIndex, int length) {
        System.arraycopy(src, srcIndex, array, index, length);
    }

    @Override
    void _setBytes(int index, ByteBuffer src) {
        src.get(array, index, src.remaining());
    }

    @Override
    void _setZero(int index, int length) {
        Arrays.fill(array, index, index + length, (byte) 0);
    }

    @Override
    ByteBuffer _nioBuffer(int index, int length) {
        return ByteBuffer.wrap(array, index, length).slice();
    }

    @Override
    ByteBuffer _internalNioBuffer(int index, int length) {
        ByteBuffer view = internalView;
        if (view == null || internalViewSource != array) {
            internalViewSource = array;
            internalView = view = ByteBuffer.wrap(array);
        }
        return rangeOf(view, index, length);
    }
}
