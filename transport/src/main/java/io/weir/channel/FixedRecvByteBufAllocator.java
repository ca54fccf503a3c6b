package io.weir.channel;

/**
 * Asks every read for the same number of bytes: for protocols with a known message size, or datagrams.
 * Immutable and thread-safe.
 */
public final class FixedRecvByteBufAllocator implements RecvByteBufAllocator {
    private final int bufferSizeBytes;

    /**
     * An allocator asking for {@code bufferSizeBytes} per read.
     *
     * @throws IllegalArgumentException if {@code bufferSizeBytes} is not positive
     */
    public FixedRecvByteBufAllocator(int bufferSizeBytes) {
        if (bufferSizeBytes <= 0) {
            throw new IllegalArgumentException("bufferSizeBytes: " + bufferSizeBytes + " (expected: > 0)");
        }
        this.bufferSizeBytes = bufferSizeBytes;
    }

    /** The size every read asks for, in bytes. */
    public int bufferSizeBytes() {
        return bufferSizeBytes;
    }

    @Override
    public Handle newHandle() {
        return new FixedHandle(bufferSizeBytes);
    }

    private static final class FixedHandle extends MaxMessagesRecvHandle {
        private final int size;

        FixedHandle(int size) {
            this.size = size;
        }

        @Override
        public int guess() {
            return size;
        }
    }
}
