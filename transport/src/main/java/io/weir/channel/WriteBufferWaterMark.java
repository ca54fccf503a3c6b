package io.weir.channel;

/**
 * The thresholds, in pending outbound bytes, at which a channel stops and starts being
 * {@linkplain Channel#isWritable() writable}: above {@code high} it turns unwritable, and it turns writable
 * again only once the pending bytes fall below {@code low}, so writability does not flap around one value.
 *
 * @param low the threshold below which an unwritable channel becomes writable again
 * @param high the threshold above which a writable channel becomes unwritable
 */
public record WriteBufferWaterMark(int low, int high) {
    /** Default low water mark, in bytes. */
    public static final int DEFAULT_LOW_WATER_MARK_BYTES = 32 * 1024;
    /** Default high water mark, in bytes. */
    public static final int DEFAULT_HIGH_WATER_MARK_BYTES = 64 * 1024;
    /** {@value #DEFAULT_LOW_WATER_MARK_BYTES} and {@value #DEFAULT_HIGH_WATER_MARK_BYTES} bytes. */
    public static final WriteBufferWaterMark DEFAULT =
            new WriteBufferWaterMark(DEFAULT_LOW_WATER_MARK_BYTES, DEFAULT_HIGH_WATER_MARK_BYTES);

    /**
     * Checks the marks.
     *
     * @throws IllegalArgumentException if {@code low} is negative or {@code high} is below {@code low}
     */
    public WriteBufferWaterMark {
        if (low < 0) {
            throw new IllegalArgumentException("low: " + low + " (expected: >= 0)");
        }
        if (high < low) {
            throw new IllegalArgumentException("high: " + high + " (expected: >= low (" + low + "))");
        }
    }
}
