package io.weir.channel.unix.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The array of kernel event records a readiness wait fills ({@code struct epoll_event}, {@code struct kevent}), in
 * direct memory read through a native-order {@link ByteBuffer}. The record's size and its fields' offsets come
 * from the transport's C compiler ({@code sizeof}/{@code offsetof}); the transport draws the layout. Event loop
 * only; not for applications.
 *
 * <p>The memory is a JDK direct buffer, returned by the garbage collector once dropped (on {@link #increase()}
 * and when the handler is destroyed): a handful of kilobytes per loop, rarely replaced.
 */
public final class NativeEventArray {
    private final int entryBytes;
    private final int maxLength;
    private ByteBuffer memory;
    private long memoryAddress;
    private int length;

    /**
     * @param entryBytes the size of one record
     * @param length initial number of records
     * @param maxLength the most {@link #increase()} grows to
     * @throws IllegalArgumentException if {@code length} is outside 1-{@code maxLength} or {@code entryBytes} is
     *         not positive
     */
    public NativeEventArray(int entryBytes, int length, int maxLength) {
        if (entryBytes < 1) {
            throw new IllegalArgumentException("entryBytes: " + entryBytes + " (expected: > 0)");
        }
        if (length < 1 || length > maxLength) {
            throw new IllegalArgumentException("length: " + length + " (expected: 1-" + maxLength + ')');
        }
        this.entryBytes = entryBytes;
        this.maxLength = maxLength;
        allocate(length);
    }

    private void allocate(int newLength) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(newLength * entryBytes).order(ByteOrder.nativeOrder());
        long address = NativeBuffers.address(buffer);
        if (address == 0) {
            throw new IllegalStateException("no address for a direct buffer");
        }
        memory = buffer;
        memoryAddress = address;
        length = newLength;
    }

    /** Records the array holds. */
    public int length() {
        return length;
    }

    /** Where the wait writes; valid until the next {@link #increase()}. */
    public long memoryAddress() {
        return memoryAddress;
    }

    /**
     * Doubles the length, up to the maximum; the contents are not kept.
     *
     * @return whether it grew
     */
    public boolean increase() {
        if (length >= maxLength) {
            return false;
        }
        allocate((int) Math.min((long) length << 1, maxLength));
        return true;
    }

    /** The 32-bit field at {@code offset} of record {@code i}. */
    public int getInt(int i, int offset) {
        return memory.getInt(i * entryBytes + offset);
    }

    /** The 16-bit field at {@code offset} of record {@code i}. */
    public short getShort(int i, int offset) {
        return memory.getShort(i * entryBytes + offset);
    }

    /** The 64-bit field at {@code offset} of record {@code i}. */
    public long getLong(int i, int offset) {
        return memory.getLong(i * entryBytes + offset);
    }
}
