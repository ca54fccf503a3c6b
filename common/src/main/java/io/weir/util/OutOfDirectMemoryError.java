package io.weir.util;

/**
 * Thrown when a direct-memory allocation would take Weir's direct memory use past its limit
 * ({@code -Dio.weir.maxDirectMemory}, by default the JVM's own direct memory limit). The message and the
 * accessors give the requested size, the use at the time of the request and the limit, so the failure
 * can be told apart from a leak (use near the limit for a long time) or a single oversized request.
 */
public final class OutOfDirectMemoryError extends OutOfMemoryError {
    private static final long serialVersionUID = 4911342217082398420L;

    private final long requestedBytes;
    private final long usedBytes;
    private final long maxBytes;

    /**
     * Creates the error for a request of {@code requestedBytes} while {@code usedBytes} of {@code maxBytes} were
     * in use.
     */
    public OutOfDirectMemoryError(long requestedBytes, long usedBytes, long maxBytes) {
        super("cannot allocate " + requestedBytes + " byte(s) of direct memory (used: " + usedBytes
                + " bytes, max: " + maxBytes + " bytes; raise -Dio.weir.maxDirectMemory or look for a leak)");
        this.requestedBytes = requestedBytes;
        this.usedBytes = usedBytes;
        this.maxBytes = maxBytes;
    }

    /** The size of the refused allocation, in bytes. */
    public long requestedBytes() {
        return requestedBytes;
    }

    /** The direct memory in use when the allocation was refused, in bytes. */
    public long usedBytes() {
        return usedBytes;
    }

    /** The limit that would have been exceeded, in bytes. */
    public long maxBytes() {
        return maxBytes;
    }
}
