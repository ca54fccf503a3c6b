package io.weir.channel.uring;

/**
 * Which of its loop's provided buffer rings a stream channel's multishot receive picks from: the small buffers
 * while its reads are small, the large ones while they keep filling small buffers, as an adaptive
 * {@link io.weir.channel.RecvByteBufAllocator} would size a buffer of the channel's own. A channel starts on small
 * buffers; {@value IoUringIoHandler#FULL_READS_TO_GROW} reads in a row that fill a small buffer move it to large
 * ones, {@value IoUringIoHandler#SMALL_READS_TO_SHRINK} reads in a row shorter than a small buffer move it back. The
 * gap between the two rules keeps a channel whose reads hover around the small size from switching on every read.
 * A receive is armed on one ring and stays there until it ends: moving means cancelling it and arming a new one.
 * Event loop only.
 */
final class ProvidedBufferChooser {
    private boolean preferLarge;
    // Reads in a row that argue for the other ring.
    private int streak;

    /**
     * The ring the next receive arms on: the preferred one, unless it has no buffer now and the other has, since
     * a receive armed on an empty ring ends at once with {@code -ENOBUFS}.
     *
     * @param small the loop's ring of small buffers, or {@code null} if it has none
     * @param large the loop's ring of large buffers, or {@code null} if it has none
     * @return {@code null} if the loop has no ring
     */
    IoUringBufferRing choose(IoUringBufferRing small, IoUringBufferRing large) {
        if (small == null || large == null) {
            return small;
        }
        IoUringBufferRing preferred = preferLarge ? large : small;
        IoUringBufferRing other = preferLarge ? small : large;
        return preferred.available() == 0 && other.available() > 0 ? other : preferred;
    }

    /**
     * Counts a read of {@code bytes} by a receive armed on {@code current}.
     *
     * @return whether that receive should end so the next one arms on the other ring (which has buffers now)
     */
    boolean recordRead(IoUringBufferRing current, IoUringBufferRing small, IoUringBufferRing large, int bytes) {
        if (small == null || large == null) {
            return false;
        }
        boolean argues = preferLarge ? bytes < small.bufferSize() : bytes >= small.bufferSize();
        if (!argues) {
            streak = 0;
        } else if (++streak >= (preferLarge ? IoUringIoHandler.SMALL_READS_TO_SHRINK
                : IoUringIoHandler.FULL_READS_TO_GROW)) {
            preferLarge = !preferLarge;
            streak = 0;
        }
        IoUringBufferRing target = preferLarge ? large : small;
        return current != target && target.available() > 0;
    }

    /** Whether the channel's reads call for large buffers now. */
    boolean prefersLarge() {
        return preferLarge;
    }
}
