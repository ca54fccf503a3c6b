package io.weir.buffer;

import io.weir.util.Recycler;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** A pooled buffer over a slot of a {@code byte[]} chunk, reached through byte-array view VarHandles. */
class PooledHeapByteBuf extends PooledByteBuf<byte[]> {
    private static final byte[] FREED = {};
    private static final VarHandle SHORT_BE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle SHORT_LE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final Recycler<PooledHeapByteBuf> RECYCLER = new Recycler<>() {
        @Override
        protected PooledHeapByteBuf newObject(Handle<PooledHeapByteBuf> handle) {
            return new PooledHeapByteBuf(handle);
        }
    };

    byte[] array = FREED;
    /** A wrapper of the whole chunk array, reused by {@link #internalNioBuffer}; dropped when the chunk changes. */
    private ByteBuffer internalView;

    PooledHeapByteBuf(Recycler.Handle<? extends PooledHeapByteBuf> handle) {
        super(handle);
    }

    static PooledHeapByteBuf newInstance(int maxCapacity) {
        PooledHeapByteBuf buf = RECYCLER.get();
        buf.reuse(maxCapacity);
        return buf;
    }

    @Override
    void memoryChanged(byte[] memory) {
        byte[] now = memory == null ? FREED : memory;
        if (now != array) {
            internalView = null;
        }
        array = now;
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
        return offset;
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
    byte _getByte(int index) {
        return array[offset + index];
    }

    @Override
    short _getShort(int index) {
        return (short) SHORT_BE.get(array, offset + index);
    }

    @Override
    short _getShortLE(int index) {
        return (short) SHORT_LE.get(array, offset + index);
    }

    @Override
    int _getInt(int index) {
        return (int) INT_BE.get(array, offset + index);
    }

    @Override
    int _getIntLE(int index) {
        return (int) INT_LE.get(array, offset + index);
    }

    @Override
    long _getLong(int index) {
        return (long) LONG_BE.get(array, offset + index);
    }

    @Override
    long _getLongLE(int index) {
        return (long) LONG_LE.get(array, offset + index);
    }

    @Override
    void _setByte(int index, int value) {
        array[offset + index] = (byte) value;
    }

    @Override
    void _setShort(int index, int value) {
        SHORT_BE.set(array, offset + index, (short) value);
    }

    @Override
    void _setShortLE(int index, int value) {
        SHORT_LE.set(array, offset + index, (short) value);
    }

    @Override
    void _setInt(int index, int value) {
        INT_BE.set(array, offset + index, value);
    }

    @Override
    void _setIntLE(int index, int value) {
        INT_LE.set(array, offset + index, value);
    }

    @Override
    void _setLong(int index, long value) {
        LONG_BE.set(array, offset + index, value);
    }

    @Override
    void _setLongLE(int index, long value) {
        LONG_LE.set(array, offset + index, value);
    }

    @Override
    void _getBytes(int index, byte[] dst, int dstIndex, int length) {
        System.arraycopy(array, offset + index, dst, dstIndex, length);
    }

    @Override
    void _getBytes(int index, ByteBuffer dst) {
        dst.put(array, offset + index, dst.remaining());
    }

    @Override
    void _setBytes(int index, byte[] src, int srcIndex, int length) {
        System.arraycopy(src, srcIndex, array, offset + index, length);
    }

    @Override
    void _setBytes(int index, ByteBuffer src) {
        src.get(array, offset + index, src.remaining());
    }

    @Override
    void _setZero(int index, int length) {
        int from = offset + index;
        Arrays.fill(array, from, from + length, (byte) 0);
    }

    @Override
    ByteBuffer _nioBuffer(int index, int length) {
        return ByteBuffer.wrap(array, offset + index, length).slice();
    }

    @Override
    ByteBuffer _internalNioBuffer(int index, int length) {
        ByteBuffer view = internalView;
        if (view == null) {
            internalView = view = ByteBuffer.wrap(array);
        }
        return rangeOf(view, offset + index, length);
    }
}
