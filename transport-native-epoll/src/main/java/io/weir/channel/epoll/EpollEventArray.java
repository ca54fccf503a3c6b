package io.weir.channel.epoll;

import io.weir.channel.unix.internal.NativeBuffers;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The {@code struct epoll_event} array {@code epoll_wait} fills, in direct memory read through a
 * native-order {@link ByteBuffer}. Event loop only.
 *
 * <pre>
 *   struct epoll_event (x86_64: packed, 12 bytes; other 64-bit CPUs: 16 bytes)
 *   0         4 (8 unpacked)
 *   +---------+--------------------+
 *   | events  | data (fd in 4 low) |
 *   +---------+--------------------+
 * </pre>
 * Size and offset come from the C compiler ({@code sizeof}/{@code offsetof}), not from this comment.
 *
 * <p>The memory is a JDK direct buffer, returned by the garbage collector once dropped (on
 * {@link #increase()} and when the handler is destroyed): a handful of kilobytes per loop, rarely replaced.
 */
final class EpollEventArray {
    static final int EVENT_SIZE_BYTES = Native.sizeofEpollEvent();
    static final int DATA_OFFSET_BYTES = Native.offsetofEpollData();

    private final int maxLength;
    private ByteBuffer memory;
    private long memoryAddress;
    private int length;

    /**
     * @param length initial number of events
     * @param maxLength the most {@link #increase()} grows to
     */
    EpollEventArray(int length, int maxLength) {
        if (length < 1 || length > maxLength) {
            throw new IllegalArgumentException("length: " + length + " (expected: 1-" + maxLength + ')');
        }
        this.maxLength = maxLength;
        allocate(length);
    }

    private void allocate(int newLength) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(newLength * EVENT_SIZE_BYTES).order(ByteOrder.nativeOrder());
        long address = NativeBuffers.address(buffer);
        if (address == 0) {
            throw new IllegalStateException("no address for a direct buffer");
        }
        memory = buffer;
        memoryAddress = address;
        length = newLength;
    }

    /** Events the array holds. */
    int length() {
        return length;
    }

    /** Where {@code epoll_wait} writes; valid until the next {@link #increase()}. */
    long memoryAddress() {
        return memoryAddress;
    }

    /**
     * Doubles the length, up to the maximum; the contents are not kept.
     *
     * @return whether it grew
     */
    boolean increase() {
        if (length >= maxLength) {
            return false;
        }
        allocate((int) Math.min((long) length << 1, maxLength));
        return true;
    }

    /** The ready events of entry {@code i}. */
    int events(int i) {
        return memory.getInt(i * EVENT_SIZE_BYTES);
    }

    /** The descriptor of entry {@code i}. */
    int fd(int i) {
        return memory.getInt(i * EVENT_SIZE_BYTES + DATA_OFFSET_BYTES);
    }
}
