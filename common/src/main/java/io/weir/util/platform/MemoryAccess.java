package io.weir.util.platform;

import io.weir.util.internal.UnsafeMemoryAccessor;
import io.weir.util.internal.VarHandleMemoryAccessor;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Reads and writes primitives in memory: at raw native addresses, in {@code byte[]}s and in
 * {@link ByteBuffer}s, in native byte order or big-endian ({@code …BE} methods).
 *
 * <p>The implementation is chosen once, at class initialisation: {@code sun.misc.Unsafe} when
 * {@link PlatformInfo#hasUnsafe()} and the CPU tolerates unaligned access (x86, ARMv8, POWER LE, s390x),
 * otherwise VarHandles. Each method is a few bytecodes that test a {@code static final} boolean, so the JIT
 * folds the test and inlines the chosen path.
 *
 * <p>Three families, with different guarantees:
 * <ul>
 *   <li><b>Raw addresses</b> ({@code long address}) work only when {@link #hasAddress()}; otherwise they throw
 *       {@link UnsupportedOperationException}. They do no bounds checks: the caller must own every byte it
 *       touches (an address from {@link #directBufferAddress} or {@link DirectMemory}, plus an index the
 *       caller checked). A wrong address crashes the JVM.</li>
 *   <li><b>{@code byte[]} with an index</b> always work and always check bounds, throwing
 *       {@link IndexOutOfBoundsException}.</li>
 *   <li><b>{@code ByteBuffer} with an absolute index</b> always work, heap or direct, ignore the buffer's
 *       position and limit, check against its capacity ({@link IndexOutOfBoundsException}) and refuse
 *       read-only buffers ({@link java.nio.ReadOnlyBufferException}). This is how the buffer module reaches
 *       direct memory when {@link #hasAddress()} is false.</li>
 * </ul>
 * All methods are stateless and may be called from any thread; they are plain (not volatile) accesses.
 */
public final class MemoryAccess {
    private static final boolean UNSAFE = PlatformInfo.hasUnsafe() && isUnalignedAccessSafe(PlatformInfo.arch());
    private static final boolean BIG_ENDIAN_NATIVE = ByteOrder.nativeOrder() == ByteOrder.BIG_ENDIAN;

    private MemoryAccess() {
    }

    static boolean isUnalignedAccessSafe(String arch) {
        switch (arch) {
            case "x86_64", "x86_32", "aarch_64", "ppcle_64", "s390_64":
                return true;
            default:
                return false;
        }
    }

    /** Whether the raw-address methods (and {@link #directBufferAddress}) are usable. */
    public static boolean hasAddress() {
        return UNSAFE;
    }

    /**
     * The offset of element 0 of a {@code byte[]} for Unsafe-style (object, offset) addressing.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     */
    public static long byteArrayBaseOffset() {
        if (UNSAFE) {
            return UnsafeMemoryAccessor.byteArrayBaseOffset();
        }
        throw noAddress();
    }

    /**
     * The native address of {@code buffer}'s element 0 (not of its position). Valid as long as the buffer's
     * memory is: until it is freed, or, for a JDK-allocated buffer, while the buffer is reachable.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     * @throws IllegalArgumentException if {@code buffer} is not direct
     */
    public static long directBufferAddress(ByteBuffer buffer) {
        Objects.requireNonNull(buffer, "buffer");
        if (UNSAFE) {
            return UnsafeMemoryAccessor.directBufferAddress(buffer);
        }
        throw noAddress();
    }

    private static UnsupportedOperationException noAddress() {
        return new UnsupportedOperationException("raw memory addresses need sun.misc.Unsafe ("
                + (PlatformInfo.hasUnsafe() ? "unaligned access not known safe on " + PlatformInfo.arch()
                        : String.valueOf(PlatformInfo.unsafeUnavailabilityCause()))
                + "); check MemoryAccess.hasAddress() and use the ByteBuffer methods");
    }
    // ---- raw addresses (only when hasAddress(); no bounds checks) ----

    /**
     * Reads a byte at {@code address} in native byte order.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     */
    public static byte getByte(long address) {
        if (UNSAFE) {
            return UnsafeMemoryAccessor.getByte(address);
        }
        throw noAddress();
    }

    /**
     * Writes a byte at {@code address} in native byte order.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     */
    public static void putByte(long address, byte value) {
        if (UNSAFE) {
            UnsafeMemoryAccessor.putByte(address, value);
            return;
        }
        throw noAddress();
    }

    /**
     * Reads a short at {@code address} in native byte order.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     */
    public static short getShort(long address) {
        if (UNSAFE) {
            return UnsafeMemoryAccessor.getShort(address);
        }
        throw noAddress();
    }

    /**
     * Writes a short at {@code address} in native byte order.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     */
    public static void putShort(long address, short value) {
        if (UNSAFE) {
            UnsafeMemoryAccessor.putShort(address, value);
            return;
        }
        throw noAddress();
    }

    /**
     * Reads an int at {@code address} in native byte order.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     */
    public static int getInt(long address) {
        if (UNSAFE) {
            return UnsafeMemoryAccessor.getInt(address);
        }
        throw noAddress();
    }

    /**
     * Writes an int at {@code address} in native byte order.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     */
    public static void putInt(long address, int value) {
        if (UNSAFE) {
            UnsafeMemoryAccessor.putInt(address, value);
            return;
        }
        throw noAddress();
    }

    /**
     * Reads a long at {@code address} in native byte order.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     */
    public static long getLong(long address) {
        if (UNSAFE) {
            return UnsafeMemoryAccessor.getLong(address);
        }
        throw noAddress();
    }

    /**
     * Writes a long at {@code address} in native byte order.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     */
    public static void putLong(long address, long value) {
        if (UNSAFE) {
            UnsafeMemoryAccessor.putLong(address, value);
            return;
        }
        throw noAddress();
    }

    /**
     * Reads a big-endian short at {@code address}.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     */
    public static short getShortBE(long address) {
        short v = getShort(address);
        return BIG_ENDIAN_NATIVE ? v : Short.reverseBytes(v);
    }

    /**
     * Writes a big-endian short at {@code address}.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     */
    public static void putShortBE(long address, short value) {
        putShort(address, BIG_ENDIAN_NATIVE ? value : Short.reverseBytes(value));
    }

    /**
     * Reads a big-endian int at {@code address}.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     */
    public static int getIntBE(long address) {
        int v = getInt(address);
        return BIG_ENDIAN_NATIVE ? v : Integer.reverseBytes(v);
    }

    /**
     * Writes a big-endian int at {@code address}.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     */
    public static void putIntBE(long address, int value) {
        putInt(address, BIG_ENDIAN_NATIVE ? value : Integer.reverseBytes(value));
    }

    /**
     * Reads a big-endian long at {@code address}.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     */
    public static long getLongBE(long address) {
        long v = getLong(address);
        return BIG_ENDIAN_NATIVE ? v : Long.reverseBytes(v);
    }

    /**
     * Writes a big-endian long at {@code address}.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     */
    public static void putLongBE(long address, long value) {
        putLong(address, BIG_ENDIAN_NATIVE ? value : Long.reverseBytes(value));
    }

    // ---- byte[] with an index (always available, bounds checked) ----

    /**
     * Reads a byte at {@code array[index]} in native byte order.
     *
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static byte getByte(byte[] array, int index) {
        return UNSAFE ? UnsafeMemoryAccessor.getByte(array, index) : VarHandleMemoryAccessor.getByte(array, index);
    }

    /**
     * Writes a byte at {@code array[index]} in native byte order.
     *
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static void putByte(byte[] array, int index, byte value) {
        if (UNSAFE) {
            UnsafeMemoryAccessor.putByte(array, index, value);
        } else {
            VarHandleMemoryAccessor.putByte(array, index, value);
        }
    }

    /**
     * Reads a short at {@code array[index]} in native byte order.
     *
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static short getShort(byte[] array, int index) {
        return UNSAFE ? UnsafeMemoryAccessor.getShort(array, index) : VarHandleMemoryAccessor.getShort(array, index);
    }

    /**
     * Writes a short at {@code array[index]} in native byte order.
     *
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static void putShort(byte[] array, int index, short value) {
        if (UNSAFE) {
            UnsafeMemoryAccessor.putShort(array, index, value);
        } else {
            VarHandleMemoryAccessor.putShort(array, index, value);
        }
    }

    /**
     * Reads an int at {@code array[index]} in native byte order.
     *
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static int getInt(byte[] array, int index) {
        return UNSAFE ? UnsafeMemoryAccessor.getInt(array, index) : VarHandleMemoryAccessor.getInt(array, index);
    }

    /**
     * Writes an int at {@code array[index]} in native byte order.
     *
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static void putInt(byte[] array, int index, int value) {
        if (UNSAFE) {
            UnsafeMemoryAccessor.putInt(array, index, value);
        } else {
            VarHandleMemoryAccessor.putInt(array, index, value);
        }
    }

    /**
     * Reads a long at {@code array[index]} in native byte order.
     *
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static long getLong(byte[] array, int index) {
        return UNSAFE ? UnsafeMemoryAccessor.getLong(array, index) : VarHandleMemoryAccessor.getLong(array, index);
    }

    /**
     * Writes a long at {@code array[index]} in native byte order.
     *
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static void putLong(byte[] array, int index, long value) {
        if (UNSAFE) {
            UnsafeMemoryAccessor.putLong(array, index, value);
        } else {
            VarHandleMemoryAccessor.putLong(array, index, value);
        }
    }

    /**
     * Reads a big-endian short at {@code array[index]}.
     *
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static short getShortBE(byte[] array, int index) {
        if (UNSAFE) {
            short v = UnsafeMemoryAccessor.getShort(array, index);
            return BIG_ENDIAN_NATIVE ? v : Short.reverseBytes(v);
        }
        return VarHandleMemoryAccessor.getShortBE(array, index);
    }

    /**
     * Writes a big-endian short at {@code array[index]}.
     *
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static void putShortBE(byte[] array, int index, short value) {
        if (UNSAFE) {
            UnsafeMemoryAccessor.putShort(array, index, BIG_ENDIAN_NATIVE ? value : Short.reverseBytes(value));
        } else {
            VarHandleMemoryAccessor.putShortBE(array, index, value);
        }
    }

    /**
     * Reads a big-endian int at {@code array[index]}.
     *
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static int getIntBE(byte[] array, int index) {
        if (UNSAFE) {
            int v = UnsafeMemoryAccessor.getInt(array, index);
            return BIG_ENDIAN_NATIVE ? v : Integer.reverseBytes(v);
        }
        return VarHandleMemoryAccessor.getIntBE(array, index);
    }

    /**
     * Writes a big-endian int at {@code array[index]}.
     *
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static void putIntBE(byte[] array, int index, int value) {
        if (UNSAFE) {
            UnsafeMemoryAccessor.putInt(array, index, BIG_ENDIAN_NATIVE ? value : Integer.reverseBytes(value));
        } else {
            VarHandleMemoryAccessor.putIntBE(array, index, value);
        }
    }

    /**
     * Reads a big-endian long at {@code array[index]}.
     *
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static long getLongBE(byte[] array, int index) {
        if (UNSAFE) {
            long v = UnsafeMemoryAccessor.getLong(array, index);
            return BIG_ENDIAN_NATIVE ? v : Long.reverseBytes(v);
        }
        return VarHandleMemoryAccessor.getLongBE(array, index);
    }

    /**
     * Writes a big-endian long at {@code array[index]}.
     *
     * @throws IndexOutOfBoundsException if it does not fit
     */
    public static void putLongBE(byte[] array, int index, long value) {
        if (UNSAFE) {
            UnsafeMemoryAccessor.putLong(array, index, BIG_ENDIAN_NATIVE ? value : Long.reverseBytes(value));
        } else {
            VarHandleMemoryAccessor.putLongBE(array, index, value);
        }
    }

    // ---- ByteBuffer with an absolute index (always available, bounds checked against capacity) ----

    /**
     * Reads a byte at absolute {@code index} of {@code buffer} in native byte order
     * (the buffer's own order is ignored).
     */
    public static byte getByte(ByteBuffer buffer, int index) {
        return VarHandleMemoryAccessor.getByte(buffer, index);
    }

    /**
     * Writes a byte at absolute {@code index} of {@code buffer} in native byte order
     * (the buffer's own order is ignored).
     */
    public static void putByte(ByteBuffer buffer, int index, byte value) {
        VarHandleMemoryAccessor.putByte(buffer, index, value);
    }

    /**
     * Reads a short at absolute {@code index} of {@code buffer} in native byte order
     * (the buffer's own order is ignored).
     */
    public static short getShort(ByteBuffer buffer, int index) {
        return VarHandleMemoryAccessor.getShort(buffer, index);
    }

    /**
     * Writes a short at absolute {@code index} of {@code buffer} in native byte order
     * (the buffer's own order is ignored).
     */
    public static void putShort(ByteBuffer buffer, int index, short value) {
        VarHandleMemoryAccessor.putShort(buffer, index, value);
    }

    /**
     * Reads an int at absolute {@code index} of {@code buffer} in native byte order
     * (the buffer's own order is ignored).
     */
    public static int getInt(ByteBuffer buffer, int index) {
        return VarHandleMemoryAccessor.getInt(buffer, index);
    }

    /**
     * Writes an int at absolute {@code index} of {@code buffer} in native byte order
     * (the buffer's own order is ignored).
     */
    public static void putInt(ByteBuffer buffer, int index, int value) {
        VarHandleMemoryAccessor.putInt(buffer, index, value);
    }

    /**
     * Reads a long at absolute {@code index} of {@code buffer} in native byte order
     * (the buffer's own order is ignored).
     */
    public static long getLong(ByteBuffer buffer, int index) {
        return VarHandleMemoryAccessor.getLong(buffer, index);
    }

    /**
     * Writes a long at absolute {@code index} of {@code buffer} in native byte order
     * (the buffer's own order is ignored).
     */
    public static void putLong(ByteBuffer buffer, int index, long value) {
        VarHandleMemoryAccessor.putLong(buffer, index, value);
    }

    /** Reads a big-endian short at absolute {@code index} of {@code buffer}. */
    public static short getShortBE(ByteBuffer buffer, int index) {
        return VarHandleMemoryAccessor.getShortBE(buffer, index);
    }

    /** Writes a big-endian short at absolute {@code index} of {@code buffer}. */
    public static void putShortBE(ByteBuffer buffer, int index, short value) {
        VarHandleMemoryAccessor.putShortBE(buffer, index, value);
    }

    /** Reads a big-endian int at absolute {@code index} of {@code buffer}. */
    public static int getIntBE(ByteBuffer buffer, int index) {
        return VarHandleMemoryAccessor.getIntBE(buffer, index);
    }

    /** Writes a big-endian int at absolute {@code index} of {@code buffer}. */
    public static void putIntBE(ByteBuffer buffer, int index, int value) {
        VarHandleMemoryAccessor.putIntBE(buffer, index, value);
    }

    /** Reads a big-endian long at absolute {@code index} of {@code buffer}. */
    public static long getLongBE(ByteBuffer buffer, int index) {
        return VarHandleMemoryAccessor.getLongBE(buffer, index);
    }

    /** Writes a big-endian long at absolute {@code index} of {@code buffer}. */
    public static void putLongBE(ByteBuffer buffer, int index, long value) {
        VarHandleMemoryAccessor.putLongBE(buffer, index, value);
    }

    // ---- bulk copy and fill ----

    /**
     * Copies {@code length} bytes between raw addresses; overlapping ranges are handled like {@code memmove}.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     * @throws IllegalArgumentException if {@code length} is negative
     */
    public static void copyMemory(long srcAddress, long dstAddress, long length) {
        if (UNSAFE) {
            UnsafeMemoryAccessor.copyMemory(srcAddress, dstAddress, length);
            return;
        }
        throw noAddress();
    }

    /**
     * Copies {@code src[srcIndex, srcIndex + length)} to a raw address.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     * @throws IndexOutOfBoundsException if the source range does not fit {@code src}
     */
    public static void copyMemory(byte[] src, int srcIndex, long dstAddress, long length) {
        if (UNSAFE) {
            UnsafeMemoryAccessor.copyMemory(src, srcIndex, dstAddress, length);
            return;
        }
        throw noAddress();
    }

    /**
     * Copies {@code length} bytes from a raw address to {@code dst[dstIndex, dstIndex + length)}.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     * @throws IndexOutOfBoundsException if the destination range does not fit {@code dst}
     */
    public static void copyMemory(long srcAddress, byte[] dst, int dstIndex, long length) {
        if (UNSAFE) {
            UnsafeMemoryAccessor.copyMemory(srcAddress, dst, dstIndex, length);
            return;
        }
        throw noAddress();
    }

    /**
     * Copies {@code length} bytes between absolute ranges of two buffers (heap or direct; the same buffer
     * with overlapping ranges is fine). Positions and limits are neither used nor changed.
     *
     * @throws IndexOutOfBoundsException if a range does not fit its buffer's capacity
     * @throws java.nio.ReadOnlyBufferException if {@code dst} is read-only
     */
    public static void copyMemory(ByteBuffer src, int srcIndex, ByteBuffer dst, int dstIndex, int length) {
        Objects.checkFromIndexSize(srcIndex, length, src.capacity());
        Objects.checkFromIndexSize(dstIndex, length, dst.capacity());
        if (src == dst) {
            // put(int, ByteBuffer, int, int) on itself copies through a duplicate; fine, and memmove-like.
            dst.put(dstIndex, src.duplicate(), srcIndex, length);
        } else {
            dst.put(dstIndex, src, srcIndex, length);
        }
    }

    /**
     * Copies {@code src[srcIndex, srcIndex + length)} to absolute {@code dstIndex} of {@code dst}.
     *
     * @throws IndexOutOfBoundsException if a range does not fit
     * @throws java.nio.ReadOnlyBufferException if {@code dst} is read-only
     */
    public static void copyMemory(byte[] src, int srcIndex, ByteBuffer dst, int dstIndex, int length) {
        Objects.checkFromIndexSize(dstIndex, length, dst.capacity());
        dst.put(dstIndex, src, srcIndex, length);
    }

    /**
     * Copies {@code length} bytes from absolute {@code srcIndex} of {@code src} to {@code dst[dstIndex, …)}.
     *
     * @throws IndexOutOfBoundsException if a range does not fit
     */
    public static void copyMemory(ByteBuffer src, int srcIndex, byte[] dst, int dstIndex, int length) {
        Objects.checkFromIndexSize(srcIndex, length, src.capacity());
        src.get(srcIndex, dst, dstIndex, length);
    }

    /**
     * Sets {@code length} bytes at a raw address to {@code value}.
     *
     * @throws UnsupportedOperationException if not {@link #hasAddress()}
     * @throws IllegalArgumentException if {@code length} is negative
     */
    public static void setMemory(long address, long length, byte value) {
        if (UNSAFE) {
            UnsafeMemoryAccessor.setMemory(address, length, value);
            return;
        }
        throw noAddress();
    }

    /**
     * Sets {@code array[index, index + length)} to {@code value}.
     *
     * @throws IndexOutOfBoundsException if the range does not fit
     */
    public static void setMemory(byte[] array, int index, int length, byte value) {
        VarHandleMemoryAccessor.setMemory(array, index, length, value);
    }

    /**
     * Sets the absolute range {@code [index, index + length)} of {@code buffer} to {@code value}.
     *
     * @throws IndexOutOfBoundsException if the range does not fit the buffer's capacity
     * @throws java.nio.ReadOnlyBufferException if {@code buffer} is read-only
     */
    public static void setMemory(ByteBuffer buffer, int index, int length, byte value) {
        Objects.checkFromIndexSize(index, length, buffer.capacity());
        if (buffer.isReadOnly()) {
            throw new java.nio.ReadOnlyBufferException();
        }
        if (UNSAFE && buffer.isDirect()) {
            // Range checked against the capacity above; the fence keeps the buffer's memory alive meanwhile.
            UnsafeMemoryAccessor.setMemory(UnsafeMemoryAccessor.directBufferAddress(buffer) + index, length, value);
            java.lang.ref.Reference.reachabilityFence(buffer);
            return;
        }
        if (buffer.hasArray()) {
            int start = buffer.arrayOffset() + index;
            java.util.Arrays.fill(buffer.array(), start, start + length, value);
            return;
        }
        fillByLongs(buffer, index, length, value);
    }

    /** Fills eight bytes per store, then the tail byte by byte. */
    private static void fillByLongs(ByteBuffer buffer, int index, int length, byte value) {
        long pattern = (value & 0xFFL) * 0x0101010101010101L;
        int end = index + length;
        int i = index;
        for (; i <= end - Long.BYTES; i += Long.BYTES) {
            VarHandleMemoryAccessor.putLong(buffer, i, pattern);
        }
        for (; i < end; i++) {
            buffer.put(i, value);
        }
    }
}
