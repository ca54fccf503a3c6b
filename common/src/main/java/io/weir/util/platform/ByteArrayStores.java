package io.weir.util.platform;

import sun.misc.Unsafe;

/**
 * Byte stores into a {@code byte[]} at positions the caller has already proven to lie inside the array, so the
 * JVM's own per-store range check can be skipped: what a tight encoder loop (UTF-8) needs and
 * {@link MemoryAccess} does not offer (its array methods always check).
 *
 * <p>Positions are {@code long} <em>offsets</em> ({@link #offset}), which the encoder advances by one per byte:
 * with Unsafe the array's base offset plus the index, so a store is a single instruction; otherwise the index
 * itself. The path is chosen once at class initialisation: {@code sun.misc.Unsafe} (from JCTools) when
 * {@link PlatformInfo#hasUnsafe()}, otherwise a plain array store, which the JVM checks as usual. A caller that
 * gets a position wrong therefore corrupts the heap on the Unsafe path: every caller checks its whole range
 * once, before its loop, against the array's length. Thread-safe (stateless).
 */
public final class ByteArrayStores {
    /** Whether {@link #putByte} skips the range check. */
    public static final boolean UNCHECKED = PlatformInfo.hasUnsafe();

    private ByteArrayStores() {
    }

    /** The offset of {@code array[index]}. */
    public static long offset(int index) {
        return UNCHECKED ? UnsafeStores.BYTE_ARRAY_BASE_OFFSET + index : index;
    }

    /** The index of the byte at {@code offset}. */
    public static int index(long offset) {
        return (int) (UNCHECKED ? offset - UnsafeStores.BYTE_ARRAY_BASE_OFFSET : offset);
    }

    /** Stores {@code value} at {@code offset}, which must be {@link #offset} of an index inside {@code array}. */
    public static void putByte(byte[] array, long offset, byte value) {
        if (UNCHECKED) {
            // Safe: every caller checked its whole range of indexes against array.length before its loop.
            UnsafeStores.U.putByte(array, offset, value);
        } else {
            array[(int) offset] = value;
        }
    }

    /** Initialised only when Unsafe is in use: that reads {@code UnsafeAccess.UNSAFE}. */
    private static final class UnsafeStores {
        static final Unsafe U = org.jctools.util.UnsafeAccess.UNSAFE;
        // Reads a layout constant only; no memory is accessed.
        static final long BYTE_ARRAY_BASE_OFFSET = U.arrayBaseOffset(byte[].class);
    }
}
