package io.weir.channel;

import java.util.Arrays;

/**
 * Sizes reads by what previous reads returned: the guess moves through a table of sizes (16-byte steps up
 * to 512, then powers of two), jumping up {@value #INDEX_INCREMENT} steps as soon as a read fills its buffer
 * and going down one step only after two read loops in a row returned clearly less than the step below.
 * Growing fast and shrinking slowly keeps bulk transfers in few large reads without pinning memory on idle
 * connections. Immutable and thread-safe.
 */
public final class AdaptiveRecvByteBufAllocator implements RecvByteBufAllocator {
    /** Default smallest guess, in bytes. */
    public static final int DEFAULT_MINIMUM_BYTES = 64;
    /** Default first guess, in bytes: enough for most requests in one read. */
    public static final int DEFAULT_INITIAL_BYTES = 2048;
    /** Default largest guess, in bytes. */
    public static final int DEFAULT_MAXIMUM_BYTES = 65536;
    static final int INDEX_INCREMENT = 4;
    static final int INDEX_DECREMENT = 1;
    private static final int SMALL_STEP_BYTES = 16;
    private static final int SMALL_LIMIT_BYTES = 512;

    private static final int[] SIZE_TABLE = sizeTable();

    /** The allocator channels use unless configured otherwise. */
    public static final AdaptiveRecvByteBufAllocator DEFAULT = new AdaptiveRecvByteBufAllocator();

    private final int minIndex;
    private final int maxIndex;
    private final int initialIndex;

    /** {@value #DEFAULT_MINIMUM_BYTES}, {@value #DEFAULT_INITIAL_BYTES} and {@value #DEFAULT_MAXIMUM_BYTES} bytes. */
    public AdaptiveRecvByteBufAllocator() {
        this(DEFAULT_MINIMUM_BYTES, DEFAULT_INITIAL_BYTES, DEFAULT_MAXIMUM_BYTES);
    }

    /**
     * An allocator whose guesses stay within {@code [minimum, maximum]}, starting at {@code initial} (each
     * rounded to the table's sizes).
     *
     * @throws IllegalArgumentException unless {@code 0 < minimum <= initial <= maximum}
     */
    public AdaptiveRecvByteBufAllocator(int minimum, int initial, int maximum) {
        if (minimum <= 0) {
            throw new IllegalArgumentException("minimum: " + minimum + " (expected: > 0)");
        }
        if (initial < minimum) {
            throw new IllegalArgumentException("initial: " + initial + " (expected: >= minimum (" + minimum + "))");
        }
        if (maximum < initial) {
            throw new IllegalArgumentException("maximum: " + maximum + " (expected: >= initial (" + initial + "))");
        }
        int min = indexAtLeast(minimum);
        // The table may round minimum up past it; the guess must never go below minimum.
        minIndex = min;
        int max = indexAtLeast(maximum);
        maxIndex = Math.max(minIndex, SIZE_TABLE[max] > maximum ? max - 1 : max);
        initialIndex = Math.max(minIndex, Math.min(maxIndex, indexAtLeast(initial)));
    }

    private static int[] sizeTable() {
        int[] table = new int[64];
        int n = 0;
        for (int size = SMALL_STEP_BYTES; size < SMALL_LIMIT_BYTES; size += SMALL_STEP_BYTES) {
            table[n++] = size;
        }
        for (int size = SMALL_LIMIT_BYTES; size > 0; size <<= 1) {
            table[n++] = size;
        }
        return Arrays.copyOf(table, n);
    }

    /** The index of the smallest table size {@code >= size}. */
    static int indexAtLeast(int size) {
        int i = Arrays.binarySearch(SIZE_TABLE, size);
        return i >= 0 ? i : Math.min(-(i + 1), SIZE_TABLE.length - 1);
    }

    /** The table size at {@code index}. */
    static int sizeAt(int index) {
        return SIZE_TABLE[index];
    }

    @Override
    public Handle newHandle() {
        return new AdaptiveHandle(minIndex, maxIndex, initialIndex);
    }

    private static final class AdaptiveHandle extends MaxMessagesRecvHandle {
        private final int minIndex;
        private final int maxIndex;
        private int index;
        private int nextReceiveBufferSize;
        private boolean decreaseNow;

        AdaptiveHandle(int minIndex, int maxIndex, int initialIndex) {
            this.minIndex = minIndex;
            this.maxIndex = maxIndex;
            this.index = initialIndex;
            this.nextReceiveBufferSize = SIZE_TABLE[initialIndex];
        }

        @Override
        public int guess() {
            return nextReceiveBufferSize;
        }

        @Override
        public void lastBytesRead(int bytes) {
            // A read that filled its buffer grows the guess at once, so the rest of this loop uses bigger reads.
            if (bytes > 0 && bytes == attemptedBytesRead()) {
                record(bytes);
            }
            super.lastBytesRead(bytes);
        }

        @Override
        public void readComplete() {
            record(totalBytesRead());
        }

        private void record(int actualReadBytes) {
            if (actualReadBytes <= SIZE_TABLE[Math.max(0, index - INDEX_DECREMENT)]) {
                if (decreaseNow) {
                    index = Math.max(index - INDEX_DECREMENT, minIndex);
                    nextReceiveBufferSize = SIZE_TABLE[index];
                    decreaseNow = false;
                } else {
                    decreaseNow = true;
                }
            } else if (actualReadBytes >= nextReceiveBufferSize) {
                index = Math.min(index + INDEX_INCREMENT, maxIndex);
                nextReceiveBufferSize = SIZE_TABLE[index];
                decreaseNow = false;
            }
        }
    }
}
