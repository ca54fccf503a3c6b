package io.weir.util.internal;

import java.lang.reflect.Field;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import sun.misc.Unsafe;

/**
 * The {@code sun.misc.Unsafe} memory path behind {@code io.weir.util.platform.MemoryAccess}.
 *
 * <p>Only loaded when {@code PlatformInfo.hasUnsafe()} is true and the CPU tolerates unaligned access (the
 * multi-byte methods rely on it; {@code MemoryAccess} checks the architecture): merely initialising this class reads
 * {@code UnsafeAccess.UNSAFE}. Array methods check their bounds before touching memory, so a wrong index
 * throws {@link IndexOutOfBoundsException} exactly like the VarHandle twin; address methods trust the
 * caller, who owns the memory (the buffer module checks indexes against its capacity first).
 */
public final class UnsafeMemoryAccessor {
    private static final Unsafe U = org.jctools.util.UnsafeAccess.UNSAFE;
    // Reads a layout constant only; no memory is accessed.
    private static final long BYTE_ARRAY_BASE_OFFSET = U.arrayBaseOffset(byte[].class);
    private static final long BUFFER_ADDRESS_OFFSET = bufferAddressOffset();
    private static final boolean BIG_ENDIAN_NATIVE = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;
    /**
     * Unsafe.copyMemory and setMemory are not interruptible by a safepoint; copying in slices of at most
     * this many bytes keeps time-to-safepoint short for multi-megabyte copies.
     */
    static final long MAX_BYTES_PER_UNSAFE_CALL = 1024 * 1024;

    private UnsafeMemoryAccessor() {
    }

    private static long bufferAddressOffset() {
        try {
            Field address = Buffer.class.getDeclaredField("address");
            // Reads a field offset only; no memory is accessed here.
            return U.objectFieldOffset(address);
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The offset of element 0 in a {@code byte[]}, for Unsafe's (object, offset) addressing. */
    public static long byteArrayBaseOffset() {
        return BYTE_ARRAY_BASE_OFFSET;
    }

    /**
     * The native address of a direct buffer's first byte (its position is ignored).
     *
     * @throws IllegalArgumentException if {@code buffer} is not direct
     */
    public static long directBufferAddress(ByteBuffer buffer) {
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("not a direct buffer: " + buffer);
        }
        // Buffer.address is a plain long field of every Buffer; reading it from a direct buffer is always valid.
        return U.getLong(buffer, BUFFER_ADDRESS_OFFSET);
    }

    // ---- raw addresses: the caller owns [address, address + size) ----

    public static byte getByte(long address) {
        // The caller owns the byte at address (MemoryAccess contract).
        return U.getByte(address);
    }

    public static void putByte(long address, byte value) {
        // The caller owns the byte at address (MemoryAccess contract).
        U.putByte(address, value);
    }

    public static short getShort(long address) {
        // The caller owns the two bytes at address; x86 and ARMv8 accept unaligned loads.
        return U.getShort(address);
    }

    public static void putShort(long address, short value) {
        // The caller owns the two bytes at address; x86 and ARMv8 accept unaligned stores.
        U.putShort(address, value);
    }

    public static int getInt(long address) {
        // The caller owns the four bytes at address; x86 and ARMv8 accept unaligned loads.
        return U.getInt(address);
    }

    public static void putInt(long address, int value) {
        // The caller owns the four bytes at address; x86 and ARMv8 accept unaligned stores.
        U.putInt(address, value);
    }

    public static long getLong(long address) {
        // The caller owns the eight bytes at address; x86 and ARMv8 accept unaligned loads.
        return U.getLong(address);
    }

    public static void putLong(long address, long value) {
        // The caller owns the eight bytes at address; x86 and ARMv8 accept unaligned stores.
        U.putLong(address, value);
    }

    public static void copyMemory(long srcAddress, long dstAddress, long length) {
        checkLength(length);
        while (length > 0) {
            long n = Math.min(length, MAX_BYTES_PER_UNSAFE_CALL);
            // The caller owns both ranges; Unsafe.copyMemory handles overlap like memmove.
            U.copyMemory(srcAddress, dstAddress, n);
            srcAddress += n;
            dstAddress += n;
            length -= n;
        }
    }

    public static void copyMemory(byte[] src, int srcIndex, long dstAddress, long length) {
        checkLength(length);
        if (length > Integer.MAX_VALUE) {
            throw new IndexOutOfBoundsException("length " + length + " exceeds the array");
        }
        Objects.checkFromIndexSize(srcIndex, (int) length, src.length);
        long srcOffset = BYTE_ARRAY_BASE_OFFSET + srcIndex;
        while (length > 0) {
            long n = Math.min(length, MAX_BYTES_PER_UNSAFE_CALL);
            // Source range checked against src.length above; the caller owns the destination range.
            U.copyMemory(src, srcOffset, null, dstAddress, n);
            srcOffset += n;
            dstAddress += n;
            length -= n;
        }
    }

    public static void copyMemory(long srcAddress, byte[] dst, int dstIndex, long length) {
        checkLength(length);
        if (length > Integer.MAX_VALUE) {
            throw new IndexOutOfBoundsException("length " + length + " exceeds the array");
        }
        Objects.checkFromIndexSize(dstIndex, (int) length, dst.length);
        long dstOffset = BYTE_ARRAY_BASE_OFFSET + dstIndex;
        while (length > 0) {
            long n = Math.min(length, MAX_BYTES_PER_UNSAFE_CALL);
            // Destination range checked against dst.length above; the caller owns the source range.
            U.copyMemory(null, srcAddress, dst, dstOffset, n);
            srcAddress += n;
            dstOffset += n;
            length -= n;
        }
    }

    public static void setMemory(long address, long length, byte value) {
        checkLength(length);
        while (length > 0) {
            long n = Math.min(length, MAX_BYTES_PER_UNSAFE_CALL);
            // The caller owns [address, address + length).
            U.setMemory(address, n, value);
            address += n;
            length -= n;
        }
    }

    // ---- byte[] with an index, bounds checked ----

    public static byte getByte(byte[] array, int index) {
        Objects.checkIndex(index, array.length);
        // Index checked against array.length above.
        return U.getByte(array, BYTE_ARRAY_BASE_OFFSET + index);
    }

    public static void putByte(byte[] array, int index, byte value) {
        Objects.checkIndex(index, array.length);
        // Index checked against array.length above.
        U.putByte(array, BYTE_ARRAY_BASE_OFFSET + index, value);
    }

    public static short getShort(byte[] array, int index) {
        Objects.checkIndex(index, array.length - 1); // intrinsic: [index, index + Short.BYTES) inside the array
        // Range checked against array.length above; unaligned access is fine on x86 and ARMv8.
        return U.getShort(array, BYTE_ARRAY_BASE_OFFSET + index);
    }

    public static void putShort(byte[] array, int index, short value) {
        Objects.checkIndex(index, array.length - 1); // intrinsic: [index, index + Short.BYTES) inside the array
        // Range checked against array.length above; unaligned access is fine on x86 and ARMv8.
        U.putShort(array, BYTE_ARRAY_BASE_OFFSET + index, value);
    }

    public static int getInt(byte[] array, int index) {
        Objects.checkIndex(index, array.length - 3); // intrinsic: [index, index + Integer.BYTES) inside the array
        // Range checked against array.length above; unaligned access is fine on x86 and ARMv8.
        return U.getInt(array, BYTE_ARRAY_BASE_OFFSET + index);
    }

    public static void putInt(byte[] array, int index, int value) {
        Objects.checkIndex(index, array.length - 3); // intrinsic: [index, index + Integer.BYTES) inside the array
        // Range checked against array.length above; unaligned access is fine on x86 and ARMv8.
        U.putInt(array, BYTE_ARRAY_BASE_OFFSET + index, value);
    }

    public static long getLong(byte[] array, int index) {
        Objects.checkIndex(index, array.length - 7); // intrinsic: [index, index + Long.BYTES) inside the array
        // Range checked against array.length above; unaligned access is fine on x86 and ARMv8.
        return U.getLong(array, BYTE_ARRAY_BASE_OFFSET + index);
    }

    public static void putLong(byte[] array, int index, long value) {
        Objects.checkIndex(index, array.length - 7); // intrinsic: [index, index + Long.BYTES) inside the array
        // Range checked against array.length above; unaligned access is fine on x86 and ARMv8.
        U.putLong(array, BYTE_ARRAY_BASE_OFFSET + index, value);
    }

    /** Whether the native byte order is big-endian (so the BE helpers need no byte swap). */
    public static boolean isBigEndianNative() {
        return BIG_ENDIAN_NATIVE;
    }

    private static void checkLength(long length) {
        if (length < 0) {
            throw new IllegalArgumentException("length: " + length + " (expected: >= 0)");
        }
    }
}
