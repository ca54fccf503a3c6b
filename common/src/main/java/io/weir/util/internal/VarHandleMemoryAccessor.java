package io.weir.util.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Objects;

/**
 * The safe memory path behind {@code io.weir.util.platform.MemoryAccess}: byte-array and byte-buffer view
 * VarHandles, which the JIT compiles to plain (bounds-checked) loads and stores. It has no notion of a raw
 * address; direct memory is reached through {@link ByteBuffer}s. Stateless and thread-safe.
 */
public final class VarHandleMemoryAccessor {
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final VarHandle ARRAY_SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, NATIVE);
    private static final VarHandle ARRAY_INT = MethodHandles.byteArrayViewVarHandle(int[].class, NATIVE);
    private static final VarHandle ARRAY_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, NATIVE);
    private static final VarHandle ARRAY_SHORT_BE =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle ARRAY_INT_BE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle ARRAY_LONG_BE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle BUFFER_SHORT = MethodHandles.byteBufferViewVarHandle(short[].class, NATIVE);
    private static final VarHandle BUFFER_INT = MethodHandles.byteBufferViewVarHandle(int[].class, NATIVE);
    private static final VarHandle BUFFER_LONG = MethodHandles.byteBufferViewVarHandle(long[].class, NATIVE);
    private static final VarHandle BUFFER_SHORT_BE =
            MethodHandles.byteBufferViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle BUFFER_INT_BE =
            MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle BUFFER_LONG_BE =
            MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private VarHandleMemoryAccessor() {
    }

    // ---- byte[] with an index, native byte order ----

    public static byte getByte(byte[] array, int index) {
        return array[index];
    }

    public static void putByte(byte[] array, int index, byte value) {
        array[index] = value;
    }

    public static short getShort(byte[] array, int index) {
        return (short) ARRAY_SHORT.get(array, index);
    }

    public static void putShort(byte[] array, int index, short value) {
        ARRAY_SHORT.set(array, index, value);
    }

    public static int getInt(byte[] array, int index) {
        return (int) ARRAY_INT.get(array, index);
    }

    public static void putInt(byte[] array, int index, int value) {
        ARRAY_INT.set(array, index, value);
    }

    public static long getLong(byte[] array, int index) {
        return (long) ARRAY_LONG.get(array, index);
    }

    public static void putLong(byte[] array, int index, long value) {
        ARRAY_LONG.set(array, index, value);
    }

    // ---- byte[] with an index, big-endian ----

    public static short getShortBE(byte[] array, int index) {
        return (short) ARRAY_SHORT_BE.get(array, index);
    }

    public static void putShortBE(byte[] array, int index, short value) {
        ARRAY_SHORT_BE.set(array, index, value);
    }

    public static int getIntBE(byte[] array, int index) {
        return (int) ARRAY_INT_BE.get(array, index);
    }

    public static void putIntBE(byte[] array, int index, int value) {
        ARRAY_INT_BE.set(array, index, value);
    }

    public static long getLongBE(byte[] array, int index) {
        return (long) ARRAY_LONG_BE.get(array, index);
    }

    public static void putLongBE(byte[] array, int index, long value) {
        ARRAY_LONG_BE.set(array, index, value);
    }

    public static void setMemory(byte[] array, int index, int length, byte value) {
        Objects.checkFromIndexSize(index, length, array.length);
        Arrays.fill(array, index, index + length, value);
    }

    // ---- ByteBuffer with an absolute index (position and limit are ignored, capacity is the bound) ----

    public static byte getByte(ByteBuffer buffer, int index) {
        return buffer.get(index);
    }

    public static void putByte(ByteBuffer buffer, int index, byte value) {
        buffer.put(index, value);
    }

    public static short getShort(ByteBuffer buffer, int index) {
        return (short) BUFFER_SHORT.get(buffer, index);
    }

    public static void putShort(ByteBuffer buffer, int index, short value) {
        BUFFER_SHORT.set(buffer, index, value);
    }

    public static int getInt(ByteBuffer buffer, int index) {
        return (int) BUFFER_INT.get(buffer, index);
    }

    public static void putInt(ByteBuffer buffer, int index, int value) {
        BUFFER_INT.set(buffer, index, value);
    }

    public static long getLong(ByteBuffer buffer, int index) {
        return (long) BUFFER_LONG.get(buffer, index);
    }

    public static void putLong(ByteBuffer buffer, int index, long value) {
        BUFFER_LONG.set(buffer, index, value);
    }

    public static short getShortBE(ByteBuffer buffer, int index) {
        return (short) BUFFER_SHORT_BE.get(buffer, index);
    }

    public static void putShortBE(ByteBuffer buffer, int index, short value) {
        BUFFER_SHORT_BE.set(buffer, index, value);
    }

    public static int getIntBE(ByteBuffer buffer, int index) {
        return (int) BUFFER_INT_BE.get(buffer, index);
    }

    public static void putIntBE(ByteBuffer buffer, int index, int value) {
        BUFFER_INT_BE.set(buffer, index, value);
    }

    public static long getLongBE(ByteBuffer buffer, int index) {
        return (long) BUFFER_LONG_BE.get(buffer, index);
    }

    public static void putLongBE(ByteBuffer buffer, int index, long value) {
        BUFFER_LONG_BE.set(buffer, index, value);
    }
}
