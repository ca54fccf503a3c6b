package io.weir.buffer;

import java.util.Arrays;

/**
 * One chunk of pooled memory ({@code byte[]} or direct {@code ByteBuffer}), cut into runs of whole pages.
 * A run is either handed out as one normal-sized buffer or cut into equal small elements by a
 * {@link PoolSubpage}. Not thread-safe: its arena's lock guards every method (the fields read by buffers,
 * {@link #memory} and {@link #arena}, are final).
 *
 * <h2>Handles</h2>
 * An allocation is described by one {@code long}:
 * <pre>
 *  63            49 48            34   33     32    31                              0
 * +---------------+----------------+------+-------+----------------------------------+
 * | runOffset     | runPages       |isUsed|isSub- | bitmapIdx                        |
 * | (15 bits,     | (15 bits,      |      |page   | (element index inside a subpage  |
 * |  first page)  |  pages of run) |      |       |  run; 0 for a normal run)        |
 * +---------------+----------------+------+-------+----------------------------------+
 * </pre>
 * runOffset uses the sign bit, so handles compare as unsigned if at all; {@link #NO_HANDLE} ({@code -1}) can
 * never be a real handle because runPages would then be 2^15 - 1 at an offset of 2^15 - 1.
 *
 * <h2>Free runs</h2>
 * Free runs are binned by page class ({@link SizeClasses#pagesToPageIdxFloor}); each bin is a doubly linked
 * list threaded through per-page arrays indexed by a run's first page, and one {@code long} bit mask records
 * which bins are non-empty. A request for {@code n} pages masks off the bins below
 * {@code pagesToPageIdxCeil(n)} and takes the first run of the lowest remaining bin, so the best-fitting class
 * is found in constant time; the tail of a larger run goes back as a new free run. Freeing looks up the free
 * runs ending just before and starting just after the freed run (also constant time) and merges them, so a
 * chunk whose buffers are all freed is one free run again.
 */
final class PoolChunk<T> {
    /** Most pages per chunk: a whole-chunk run must fit the 15-bit runPages field. */
    static final int MAX_PAGES = 1 << 14;
    static final long NO_HANDLE = -1;

    private static final int RUN_OFFSET_SHIFT = 49;
    private static final int RUN_PAGES_SHIFT = 34;
    private static final int IS_USED_SHIFT = 33;
    private static final int IS_SUBPAGE_SHIFT = 32;
    private static final long FIFTEEN_BITS = 0x7FFF;
    private static final int NONE = -1;

    final PoolArena<T> arena;
    final T memory;
    /** Whether this chunk holds exactly one huge buffer and is freed with it. */
    final boolean unpooled;
    final int chunkSize;

    private final SizeClasses sizeClasses;
    private final int pageShift;
    private final int chunkPages;
    /** By first page of a free run: its page count; 0 where no free run starts. */
    private final int[] freeRunPages;
    /** By last page of a free run: its first page + 1; 0 where no free run ends. */
    private final int[] freeRunStartPlusOne;
    private final int[] nextFree;
    private final int[] prevFree;
    private final int[] binHead;
    private long nonEmptyBins;
    /** By first page of a subpage run: its subpage. */
    private final PoolSubpage<T>[] subpages;
    private int freeBytes;
    /** Bytes of the entirely free subpage runs kept for their class (see {@link PoolSubpage#free}). */
    int idleSubpageBytes;

    /** A pooled chunk over {@code memory} of {@code sizeClasses.chunkSize} bytes, entirely free. */
    @SuppressWarnings("unchecked")
    PoolChunk(PoolArena<T> arena, T memory, SizeClasses sizeClasses) {
        this.arena = arena;
        this.memory = memory;
        this.unpooled = false;
        this.sizeClasses = sizeClasses;
        this.chunkSize = sizeClasses.chunkSize;
        this.pageShift = sizeClasses.pageShift;
        this.chunkPages = sizeClasses.chunkPages;
        freeRunPages = new int[chunkPages];
        freeRunStartPlusOne = new int[chunkPages];
        nextFree = new int[chunkPages];
        prevFree = new int[chunkPages];
        binHead = new int[sizeClasses.nPageClasses()];
        Arrays.fill(binHead, NONE);
        subpages = new PoolSubpage[chunkPages];
        insertFreeRun(0, chunkPages);
        freeBytes = chunkSize;
    }

    /** An unpooled chunk holding one huge buffer of {@code size} bytes. */
    PoolChunk(PoolArena<T> arena, T memory, int size) {
        this.arena = arena;
        this.memory = memory;
        this.unpooled = true;
        this.sizeClasses = null;
        this.chunkSize = size;
        this.pageShift = 0;
        this.chunkPages = 0;
        freeRunPages = null;
        freeRunStartPlusOne = null;
        nextFree = null;
        prevFree = null;
        binHead = null;
        subpages = null;
        freeBytes = 0;
    }

    static long handle(int runOffset, int runPages, boolean isSubpage, int bitmapIdx) {
        return (long) runOffset << RUN_OFFSET_SHIFT
                | (long) runPages << RUN_PAGES_SHIFT
                | 1L << IS_USED_SHIFT
                | (isSubpage ? 1L : 0L) << IS_SUBPAGE_SHIFT
                | (bitmapIdx & 0xFFFFFFFFL);
    }

    static int runOffset(long handle) {
        return (int) (handle >>> RUN_OFFSET_SHIFT);
    }

    static int runPages(long handle) {
        return (int) (handle >>> RUN_PAGES_SHIFT & FIFTEEN_BITS);
    }

    static boolean isUsed(long handle) {
        return (handle >>> IS_USED_SHIFT & 1) != 0;
    }

    static boolean isSubpage(long handle) {
        return (handle >>> IS_SUBPAGE_SHIFT & 1) != 0;
    }

    static int bitmapIdx(long handle) {
        return (int) handle;
    }

    /** Bytes not taken by any run (free space inside subpage runs is not counted). */
    int freeBytes() {
        return freeBytes;
    }

    /** Whether every page of this chunk is free. */
    boolean isEmpty() {
        return freeBytes == chunkSize;
    }

    /** Whether no buffer uses this chunk: every page is free or in an entirely free run kept for its class. */
    boolean isIdle() {
        return freeBytes + idleSubpageBytes == chunkSize;
    }

    /** Byte offset of {@code handle}'s memory inside {@link #memory}. */
    int byteOffset(long handle) {
        int offset = runOffset(handle) << pageShift;
        if (isSubpage(handle)) {
            offset += bitmapIdx(handle) * subpages[runOffset(handle)].elemSize;
        }
        return offset;
    }

    /** Takes a run of {@code pages} pages, or returns {@link #NO_HANDLE} if no free run is long enough. */
    long allocateRun(int pages) {
        long bins = nonEmptyBins & (-1L << sizeClasses.pagesToPageIdxCeil(pages));
        if (bins == 0) {
            return NO_HANDLE;
        }
        int first = binHead[Long.numberOfTrailingZeros(bins)];
        int have = freeRunPages[first];
        removeFreeRun(first, have);
        if (have > pages) {
            insertFreeRun(first + pages, have - pages);
        }
        freeBytes -= pages << pageShift;
        return handle(first, pages, false, 0);
    }

    /** Takes one element of small class {@code sizeIdx} out of a new run, registering its subpage in the arena. */
    long allocateSubpage(int sizeIdx, PoolSubpage<T> head) {
        int pages = sizeClasses.smallRunPages(sizeIdx);
        long run = allocateRun(pages);
        if (run == NO_HANDLE) {
            return NO_HANDLE;
        }
        int first = runOffset(run);
        PoolSubpage<T> subpage = new PoolSubpage<>(head, this, first, pages, pages << pageShift,
                sizeClasses.idxToSize(sizeIdx));
        subpages[first] = subpage;
        return subpage.allocate();
    }

    /**
     * Frees the memory of {@code handle}. For an element of a subpage that keeps the run (other elements are
     * live, or it is the only run of its class and {@code mayKeepSubpage}), only the element is freed.
     */
    void free(long handle, boolean mayKeepSubpage) {
        int first = runOffset(handle);
        if (isSubpage(handle)) {
            PoolSubpage<T> subpage = subpages[first];
            if (subpage.free(bitmapIdx(handle), mayKeepSubpage)) {
                return;
            }
            subpages[first] = null;
        }
        freeRun(first, runPages(handle));
    }

    private void freeRun(int first, int pages) {
        freeBytes += pages << pageShift;
        if (first > 0) {
            int leftStart = freeRunStartPlusOne[first - 1] - 1;
            if (leftStart >= 0) {
                int leftPages = freeRunPages[leftStart];
                removeFreeRun(leftStart, leftPages);
                first = leftStart;
                pages += leftPages;
            }
        }
        int right = first + pages;
        if (right < chunkPages) {
            int rightPages = freeRunPages[right];
            if (rightPages != 0) {
                removeFreeRun(right, rightPages);
                pages += rightPages;
            }
        }
        insertFreeRun(first, pages);
    }

    private void insertFreeRun(int first, int pages) {
        freeRunPages[first] = pages;
        freeRunStartPlusOne[first + pages - 1] = first + 1;
        int bin = sizeClasses.pagesToPageIdxFloor(pages);
        int head = binHead[bin];
        nextFree[first] = head;
        prevFree[first] = NONE;
        if (head != NONE) {
            prevFree[head] = first;
        }
        binHead[bin] = first;
        nonEmptyBins |= 1L << bin;
    }

    private void removeFreeRun(int first, int pages) {
        freeRunPages[first] = 0;
        freeRunStartPlusOne[first + pages - 1] = 0;
        int next = nextFree[first];
        int prev = prevFree[first];
        if (next != NONE) {
            prevFree[next] = prev;
        }
        if (prev != NONE) {
            nextFree[prev] = next;
        } else {
            int bin = sizeClasses.pagesToPageIdxFloor(pages);
            binHead[bin] = next;
            if (next == NONE) {
                nonEmptyBins &= ~(1L << bin);
            }
        }
    }

    @Override
    public String toString() {
        return "PoolChunk(" + (unpooled ? "unpooled, " : "") + "size: " + chunkSize + ", free: " + freeBytes + ")";
    }
}
