package io.weir.channel.kqueue;

import io.weir.channel.unix.internal.NativeBuffers;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The {@code struct kevent} array {@code kevent} fills, in direct memory read through a native-order
 * {@link ByteBuffer}. Event loop only.
 *
 * <pre>
 *   struct kevent (64-bit macOS, FreeBSD &lt; 12 and libkqueue: 32 bytes; FreeBSD 12+ adds ext[4]: 64 bytes)
 *   0               8        10       12        16              24              32
 *   +---------------+--------+--------+---------+---------------+---------------+
 *   | ident         | filter | flags  | fflags  | data          | udata         |
 *   | uintptr_t     | short  | ushort | uint    | intptr_t      | void*         |
 *   +---------------+--------+--------+---------+---------------+---------------+
 * </pre>
 * Size and offsets come from the C compiler ({@code sizeof}/{@code offsetof}), not from this comment.
 *
 * <p>The memory is a JDK direct buffer, returned by the garbage collector once dropped (on {@link #increase()}
 * and when the handler is destroyed).
 */
final class KQueueEventArray {
    static final int EVENT_SIZE_BYTES = Native.sizeofKEvent();
    private static final int IDENT_OFFSET = Native.offsetofKEventIdent();
    private static final int FILTER_OFFSET = Native.offsetofKEventFilter();
    private static final int FLAGS_OFFSET = Native.offsetofKEventFlags();
    private static final int FFLAGS_OFFSET = Native.offsetofKEventFFlags();

    private final int maxLength;
    private ByteBuffer memory;
    private long memoryAddress;
    private int length;

    /**
     * @param length initial number of events
     * @param maxLength the most {@link #increase()} grows to
     */
    KQueueEventArray(int length, int maxLength) {
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

    /** Where {@code kevent} writes; valid until the next {@link #increase()}. */
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

    /**
     * The identifier of entry {@code i}: a descriptor number for the read and write filters. Identifiers above
     * {@link Integer#MAX_VALUE} (never a descriptor) come back negative.
     */
    int ident(int i) {
        long ident = memory.getLong(i * EVENT_SIZE_BYTES + IDENT_OFFSET);
        return ident > Integer.MAX_VALUE ? -1 : (int) ident;
    }

    /** The filter of entry {@code i} ({@code EVFILT_READ}, {@code EVFILT_WRITE}, {@code EVFILT_USER}). */
    short filter(int i) {
        return memory.getShort(i * EVENT_SIZE_BYTES + FILTER_OFFSET);
    }

    /** The flags of entry {@code i} ({@code EV_EOF}, {@code EV_ERROR}, ...), as an unsigned value. */
    int flags(int i) {
        return memory.getShort(i * EVENT_SIZE_BYTES + FLAGS_OFFSET) & 0xFFFF;
    }

    /** The filter flags of entry {@code i}: with {@code EV_EOF} on a socket, the pending error number or 0. */
    int fflags(int i) {
        return memory.getInt(i * EVENT_SIZE_BYTES + FFLAGS_OFFSET);
    }
}
