package io.weir.buffer;

/**
 * A run of pages cut into equal elements of one small size class, with one bit per element (set while the
 * element is taken). Subpages with free elements sit in their arena's doubly linked list for that class, whose
 * head is a sentinel {@code PoolSubpage} with no chunk. Not thread-safe: the arena's lock guards it.
 */
final class PoolSubpage<T> {
    final PoolChunk<T> chunk;
    final int runOffset;
    final int runPages;
    final int elemSize;
    private final int maxNumElems;
    private final long[] bitmap;
    /** The run's bytes ({@code runPages} pages). */
    private final int runSize;
    private final PoolSubpage<T> head;
    PoolSubpage<T> prev;
    PoolSubpage<T> next;
    private int numAvail;
    /** Search starts here: the lowest index that may be free. */
    private int nextCandidate;
    /** Entirely free and kept in its list (see {@link #free}); its bytes count in its chunk's idle bytes. */
    private boolean keptIdle;

    /** A list head (sentinel) for one size class. */
    PoolSubpage() {
        chunk = null;
        runOffset = -1;
        runPages = 0;
        elemSize = -1;
        maxNumElems = 0;
        bitmap = null;
        runSize = 0;
        head = this;
        prev = this;
        next = this;
    }

    /** A new run of {@code runSize} bytes cut into {@code elemSize}-byte elements, linked behind {@code head}. */
    PoolSubpage(PoolSubpage<T> head, PoolChunk<T> chunk, int runOffset, int runPages, int runSize, int elemSize) {
        this.chunk = chunk;
        this.runOffset = runOffset;
        this.runPages = runPages;
        this.elemSize = elemSize;
        this.head = head;
        this.runSize = runSize;
        maxNumElems = runSize / elemSize;
        numAvail = maxNumElems;
        bitmap = new long[(maxNumElems + Long.SIZE - 1) >>> 6];
        linkAfterHead();
    }

    /** Whether this is a list head rather than a run. */
    boolean isHead() {
        return chunk == null;
    }

    int numAvailable() {
        return numAvail;
    }

    int maxNumElements() {
        return maxNumElems;
    }

    /** Takes a free element and returns its handle; the subpage must have one (it is in its list). */
    long allocate() {
        if (keptIdle) {
            keptIdle = false;
            chunk.idleSubpageBytes -= runSize;
        }
        int idx = findFree();
        bitmap[idx >>> 6] |= 1L << idx;
        if (--numAvail == 0) {
            unlink();
        }
        return PoolChunk.handle(runOffset, runPages, true, idx);
    }

    private int findFree() {
        long[] bits = bitmap;
        for (int w = nextCandidate >>> 6; w < bits.length; w++) {
            long free = ~bits[w];
            if (free != 0) {
                int idx = (w << 6) + Long.numberOfTrailingZeros(free);
                if (idx < maxNumElems) {
                    nextCandidate = idx + 1;
                    return idx;
                }
            }
        }
        throw new IllegalStateException("no free element in " + this + " (the arena's list is corrupt)");
    }

    /**
     * Frees element {@code idx}. Returns {@code true} if the run stays (in use, or kept), {@code false} if the run is
     * now entirely free and was taken out of its list, so the chunk should free the pages.
     *
     * @param mayKeep whether an entirely free run that is the only one of its class may stay in its list, kept
     *        for the next allocation of the class (its chunk is the arena's first, which an idle arena keeps anyway)
     */
    boolean free(int idx, boolean mayKeep) {
        long bit = 1L << idx;
        if ((bitmap[idx >>> 6] & bit) == 0) {
            throw new IllegalStateException("element " + idx + " of " + this + " is already free");
        }
        bitmap[idx >>> 6] &= ~bit;
        if (idx < nextCandidate) {
            nextCandidate = idx;
        }
        if (numAvail++ == 0) {
            linkAfterHead();
        }
        if (numAvail < maxNumElems) {
            return true;
        }
        if (mayKeep && prev == head && next == head) {
            // The only run of its class: kept, or a thread without a cache (any thread but an event loop's, by
            // default) that allocates and frees one buffer at a time would cut a run and make a subpage for each.
            keptIdle = true;
            chunk.idleSubpageBytes += runSize;
            return true;
        }
        // Any other entirely free run goes back to the chunk at once.
        unlink();
        return false;
    }

    private void linkAfterHead() {
        prev = head;
        next = head.next;
        next.prev = this;
        head.next = this;
    }

    private void unlink() {
        prev.next = next;
        next.prev = prev;
        prev = null;
        next = null;
    }

    @Override
    public String toString() {
        return isHead() ? "PoolSubpage(head)"
                : "PoolSubpage(run: " + runOffset + ", elemSize: " + elemSize + ", free: " + numAvail + "/"
                        + maxNumElems + ")";
    }
}
