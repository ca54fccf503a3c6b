package io.weir.buffer;

import io.weir.util.ByteProcessor;
import io.weir.util.platform.MemoryAccess;
import java.nio.ByteOrder;

/**
 * Finds one byte value in a buffer range eight bytes at a time (SWAR: SIMD within a register).
 *
 * <p>Each step reads a {@code long}, XORs it with the sought byte repeated eight times, so matching bytes
 * become zero, and turns each zero byte into {@code 0x80} with {@link #zeroBytes(long)}. The fewer-than-eight
 * bytes left over are compared one by one; unaligned word reads are fine on every path.
 *
 * <p>Where the memory is reachable directly the word is read in native order straight from it: from the
 * backing array of heap buffers and their slices ({@link MemoryAccess#getLong(byte[], int)}, a VarHandle or
 * Unsafe read chosen at class init) and from the address of Unsafe direct buffers. That keeps the loop free
 * of a virtual call per word, which a program using several buffer kinds would otherwise pay. Every other
 * buffer (NIO-backed direct, read-only views) goes through its own big-endian {@code _getLong}. In native
 * little-endian order the byte at the lowest index is the least significant one, so the first match forwards
 * is the lowest set bit; in big-endian order it is the highest.
 *
 * <p>Callers check the range and the buffer's accessibility; these methods read whatever they are told to.
 */
final class ByteSearch {
    private static final long LOW_SEVEN_BITS = 0x7F7F_7F7F_7F7F_7F7FL;
    private static final long EVERY_BYTE_ONE = 0x0101_0101_0101_0101L;
    private static final boolean NATIVE_LE = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private ByteSearch() {
    }

    /** {@code value} in each of the eight bytes of a long. */
    static long broadcast(byte value) {
        return (value & 0xFFL) * EVERY_BYTE_ONE;
    }

    /**
     * {@code 0x80} in every byte of {@code word} that is zero and {@code 0x00} in every other byte.
     *
     * <p>The shorter {@code (word - 0x01..01) & ~word & 0x80..80} is exact only for the lowest zero byte: the
     * borrow out of a zero byte also flags a {@code 0x01} byte above it. Adding {@code 0x7F} to the low seven
     * bits of each byte cannot carry across bytes, so this form flags each byte on its own, which a search
     * that takes the highest set bit needs (forwards in big-endian order, backwards in little-endian).
     */
    static long zeroBytes(long word) {
        long lowBitsNonZero = (word & LOW_SEVEN_BITS) + LOW_SEVEN_BITS;
        return ~(lowBitsNonZero | word | LOW_SEVEN_BITS);
    }

    /** The first index of {@code value} in {@code [fromIndex, toIndex)}, or -1; requires fromIndex <= toIndex. */
    static int firstIndexOf(AbstractByteBuf buf, int fromIndex, int toIndex, byte value) {
        if (toIndex - fromIndex < Long.BYTES) {
            return firstIndexOfTail(buf, fromIndex, toIndex, value);
        }
        if (buf.hasArray()) {
            int offset = buf.arrayOffset();
            int found = firstIndexOf(buf.array(), offset + fromIndex, offset + toIndex, value);
            return found < 0 ? -1 : found - offset;
        }
        if (buf.hasMemoryAddress()) {
            long address = buf.memoryAddress();
            return firstIndexOf(address, fromIndex, toIndex, value);
        }
        long pattern = broadcast(value);
        int i = fromIndex;
        for (int lastWordStart = toIndex - Long.BYTES; i <= lastWordStart; i += Long.BYTES) {
            long found = zeroBytes(buf._getLong(i) ^ pattern);
            if (found != 0) {
                // _getLong is big-endian: the lowest index is the highest byte.
                return i + (Long.numberOfLeadingZeros(found) >>> 3);
            }
        }
        return firstIndexOfTail(buf, i, toIndex, value);
    }

    private static int firstIndexOfTail(AbstractByteBuf buf, int fromIndex, int toIndex, byte value) {
        for (int i = fromIndex; i < toIndex; i++) {
            if (buf._getByte(i) == value) {
                return i;
            }
        }
        return -1;
    }

    private static int firstIndexOf(byte[] array, int fromIndex, int toIndex, byte value) {
        long pattern = broadcast(value);
        int i = fromIndex;
        for (int lastWordStart = toIndex - Long.BYTES; i <= lastWordStart; i += Long.BYTES) {
            long found = zeroBytes(MemoryAccess.getLong(array, i) ^ pattern);
            if (found != 0) {
                return i + firstByteOfNative(found);
            }
        }
        for (; i < toIndex; i++) {
            if (array[i] == value) {
                return i;
            }
        }
        return -1;
    }

    private static int firstIndexOf(long address, int fromIndex, int toIndex, byte value) {
        long pattern = broadcast(value);
        int i = fromIndex;
        // Raw reads: [fromIndex, toIndex) was checked against the live buffer's capacity by the caller.
        for (int lastWordStart = toIndex - Long.BYTES; i <= lastWordStart; i += Long.BYTES) {
            long found = zeroBytes(MemoryAccess.getLong(address + i) ^ pattern);
            if (found != 0) {
                return i + firstByteOfNative(found);
            }
        }
        for (; i < toIndex; i++) {
            if (MemoryAccess.getByte(address + i) == value) {
                return i;
            }
        }
        return -1;
    }

    /** Of a {@link #zeroBytes} result from a native-order read: the flagged byte at the lowest index, 0..7. */
    private static int firstByteOfNative(long found) {
        return (NATIVE_LE ? Long.numberOfTrailingZeros(found) : Long.numberOfLeadingZeros(found)) >>> 3;
    }

    /** Of a {@link #zeroBytes} result from a native-order read: the flagged byte at the highest index, 0..7. */
    private static int lastByteOfNative(long found) {
        return 7 - ((NATIVE_LE ? Long.numberOfLeadingZeros(found) : Long.numberOfTrailingZeros(found)) >>> 3);
    }

    /** The last index of {@code value} in {@code [lowIndex, highIndex)}, or -1; requires lowIndex <= highIndex. */
    static int lastIndexOf(AbstractByteBuf buf, int lowIndex, int highIndex, byte value) {
        if (highIndex - lowIndex >= Long.BYTES) {
            if (buf.hasArray()) {
                int offset = buf.arrayOffset();
                int found = lastIndexOf(buf.array(), offset + lowIndex, offset + highIndex, value);
                return found < 0 ? -1 : found - offset;
            }
            if (buf.hasMemoryAddress()) {
                return lastIndexOf(buf.memoryAddress(), lowIndex, highIndex, value);
            }
        }
        int end = highIndex;
        if (highIndex - lowIndex >= Long.BYTES) {
            long pattern = broadcast(value);
            int firstWordStart = lowIndex + Long.BYTES;
            for (; end >= firstWordStart; end -= Long.BYTES) {
                long found = zeroBytes(buf._getLong(end - Long.BYTES) ^ pattern);
                if (found != 0) {
                    return end - 1 - (Long.numberOfTrailingZeros(found) >>> 3);
                }
            }
        }
        for (int i = end - 1; i >= lowIndex; i--) {
            if (buf._getByte(i) == value) {
                return i;
            }
        }
        return -1;
    }

    private static int lastIndexOf(byte[] array, int lowIndex, int highIndex, byte value) {
        long pattern = broadcast(value);
        int end = highIndex;
        for (int firstWordEnd = lowIndex + Long.BYTES; end >= firstWordEnd; end -= Long.BYTES) {
            long found = zeroBytes(MemoryAccess.getLong(array, end - Long.BYTES) ^ pattern);
            if (found != 0) {
                return end - Long.BYTES + lastByteOfNative(found);
            }
        }
        for (int i = end - 1; i >= lowIndex; i--) {
            if (array[i] == value) {
                return i;
            }
        }
        return -1;
    }

    private static int lastIndexOf(long address, int lowIndex, int highIndex, byte value) {
        long pattern = broadcast(value);
        int end = highIndex;
        // Raw reads: [lowIndex, highIndex) was checked against the live buffer's capacity by the caller.
        for (int firstWordEnd = lowIndex + Long.BYTES; end >= firstWordEnd; end -= Long.BYTES) {
            long found = zeroBytes(MemoryAccess.getLong(address + end - Long.BYTES) ^ pattern);
            if (found != 0) {
                return end - Long.BYTES + lastByteOfNative(found);
            }
        }
        for (int i = end - 1; i >= lowIndex; i--) {
            if (MemoryAccess.getByte(address + i) == value) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The byte that {@code processor} stops at if it is one of the single-byte {@code ByteProcessor.FIND_*}
     * constants, else -1 (a value outside the byte range). Identity checks only: any other processor,
     * including an equivalent one, keeps its own loop.
     */
    static int soughtByte(ByteProcessor processor) {
        if (processor == ByteProcessor.FIND_LF) {
            return '\n';
        }
        if (processor == ByteProcessor.FIND_CR) {
            return '\r';
        }
        if (processor == ByteProcessor.FIND_NUL) {
            return 0;
        }
        if (processor == ByteProcessor.FIND_COMMA) {
            return ',';
        }
        if (processor == ByteProcessor.FIND_SEMI_COLON) {
            return ';';
        }
        return -1;
    }
}
