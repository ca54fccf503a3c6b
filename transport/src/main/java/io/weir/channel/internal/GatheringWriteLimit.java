package io.weir.channel.internal;

/**
 * The bytes one gathering write of a stream channel offers the kernel, adapted to what the socket took before:
 * doubled (up to a ceiling) when it took everything, in case the write was cut by this limit; halved (down to
 * {@value #MIN_BYTES}) when it took less than half. So a transport does not fill its iovec or NIO-buffer array with
 * entries the kernel would refuse anyway. One per channel; event loop only.
 */
public final class GatheringWriteLimit {
    /** Fewest bytes a gathering write offers, whatever the socket took last time. */
    public static final int MIN_BYTES = 4096;
    /** Bytes a gathering write offers before the socket's behaviour is known. */
    public static final int INITIAL_BYTES = 128 * 1024;

    private final long maxBytes;
    private long bytes = INITIAL_BYTES;

    /**
     * A limit that starts at {@value #INITIAL_BYTES} and never grows above {@code maxBytes}.
     *
     * @throws IllegalArgumentException if {@code maxBytes} is below {@value #MIN_BYTES}
     */
    public GatheringWriteLimit(long maxBytes) {
        if (maxBytes < MIN_BYTES) {
            throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected: >= " + MIN_BYTES + ')');
        }
        this.maxBytes = maxBytes;
    }

    /** The bytes the next gathering write offers at most. */
    public long bytes() {
        return bytes;
    }

    /** Sets the limit (from the socket's send buffer size, say), kept between {@value #MIN_BYTES} and the ceiling. */
    public void bytes(long bytes) {
        this.bytes = Math.min(maxBytes, Math.max(MIN_BYTES, bytes));
    }

    /**
     * Adapts the limit after a write that offered {@code attempted} bytes and saw {@code written} taken. A write
     * taken whole doubles the limit, whatever its size: the limit may be what cut it short (a 9-byte frame header
     * offered alone because the payload behind it did not fit), and only a write that takes everything can show
     * the socket has room again, so a limit that once fell to {@value #MIN_BYTES} must not stay there.
     */
    public void adjust(long attempted, long written) {
        if (attempted == written) {
            bytes = Math.min(Math.max(bytes, attempted) << 1, maxBytes);
        } else if (attempted > MIN_BYTES && written < attempted >>> 1) {
            bytes = Math.max(MIN_BYTES, attempted >>> 1);
        }
    }
}
