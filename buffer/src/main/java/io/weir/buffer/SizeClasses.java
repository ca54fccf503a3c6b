package io.weir.buffer;

import java.util.Arrays;

/**
 * jemalloc-style size classes of one pooled allocator: every request is rounded up to the next class, so freed
 * memory can be reused by any later request of the same class. Immutable and thread-safe once built.
 *
 * <h2>Layout</h2>
 * The first group is four multiples of the {@value #QUANTUM_BYTES}-byte quantum; every later group spans one
 * doubling in four equal steps, so rounding up never wastes more than 25% (and at most 12.5% on average):
 * <pre>
 *  group   base      step     classes (bytes)
 *  0       0         16       16     32     48     64
 *  1       64        16       80     96     112    128
 *  2       128       32       160    192    224    256
 *  3       256       64       320    384    448    512
 *  ...
 *  k       2^(k+5)   2^(k+3)  base + 1*step ... base + 4*step
 *  ...                        ...    chunkSize (the last class)
 *
 *  index:  0 .. nSmall-1                  | nSmall .. nSizes-1
 *          SMALL: classes below 4 pages   | NORMAL: runs of whole pages
 *          (many per run, see PoolSubpage)| (every class here is a multiple of pageSize)
 * </pre>
 * Small classes stop below {@code 4 * pageSize}: from there on the step is at least one page, so every class is
 * a whole number of pages. A small class is served from a run of {@code lcm(size, pageSize)} bytes cut into
 * equal elements, which leaves no tail unused.
 * <p>
 * The "page classes" are the classes that are a whole number of pages; free runs in a chunk are binned by the
 * largest page class not above their length ({@link #pagesToPageIdxFloor}), and a request for {@code n} pages
 * searches from the smallest page class not below {@code n} ({@link #pagesToPageIdxCeil}).
 */
final class SizeClasses {
    /** The smallest class and the granularity of the first group, in bytes. */
    static final int QUANTUM_BYTES = 16;
    /** Classes per doubling. */
    static final int CLASSES_PER_GROUP = 4;
    /** Requests up to this size find their class through a direct table, larger ones by arithmetic. */
    private static final int LOOKUP_MAX_BYTES = 4096;

    final int pageSize;
    final int pageShift;
    final int chunkSize;
    final int chunkPages;
    /** Index of the first normal (page-run) class; indexes below it are small. */
    final int nSmall;

    private final int[] sizes;
    /** For small classes: how many pages one run of that class spans. */
    private final int[] smallRunPages;
    private final byte[] lookup;
    /** Page counts of the page classes, ascending. */
    private final int[] pageClassPages;
    private final int[] pagesToFloor;
    private final int[] pagesToCeil;

    /**
     * @throws IllegalArgumentException if {@code pageSize} is not a power of two in [4096, 65536] or
     *         {@code chunkSize} is not a power of two of at least 4 pages and at most 2^15 pages and 1 GiB
     */
    SizeClasses(int pageSize, int chunkSize) {
        if (pageSize < 4096 || pageSize > 65536 || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("pageSize: " + pageSize + " (expected: a power of two in [4096, 65536])");
        }
        if (chunkSize < 4 * pageSize || Integer.bitCount(chunkSize) != 1 || chunkSize > (1 << 30)
                || chunkSize / pageSize > PoolChunk.MAX_PAGES) {
            throw new IllegalArgumentException("chunkSize: " + chunkSize + " (expected: a power of two, at least 4"
                    + " pages of " + pageSize + " bytes, at most " + PoolChunk.MAX_PAGES + " pages and 1 GiB)");
        }
        this.pageSize = pageSize;
        this.pageShift = Integer.numberOfTrailingZeros(pageSize);
        this.chunkSize = chunkSize;
        this.chunkPages = chunkSize >> pageShift;

        int[] s = new int[128];
        int n = 0;
        for (int i = 1; i <= CLASSES_PER_GROUP; i++) {
            s[n++] = i * QUANTUM_BYTES;
        }
        while (s[n - 1] < chunkSize) {
            int base = s[n - 1];
            int step = base / CLASSES_PER_GROUP;
            for (int i = 1; i <= CLASSES_PER_GROUP; i++) {
                s[n++] = base + i * step;
            }
        }
        sizes = Arrays.copyOf(s, n);

        int small = 0;
        while (sizes[small] < 4 * pageSize) {
            small++;
        }
        nSmall = small;
        smallRunPages = new int[small];
        for (int i = 0; i < small; i++) {
            int size = sizes[i];
            int gcd = gcd(size, pageSize);
            smallRunPages[i] = size / gcd; // lcm(size, pageSize) / pageSize
        }

        lookup = new byte[LOOKUP_MAX_BYTES / QUANTUM_BYTES];
        for (int q = 0, idx = 0; q < lookup.length; q++) {
            int size = (q + 1) * QUANTUM_BYTES;
            while (sizes[idx] < size) {
                idx++;
            }
            lookup[q] = (byte) idx;
        }

        int[] pc = new int[n];
        int npc = 0;
        for (int size : sizes) {
            if ((size & (pageSize - 1)) == 0) {
                pc[npc++] = size >> pageShift;
            }
        }
        pageClassPages = Arrays.copyOf(pc, npc);
        if (npc > Long.SIZE) {
            throw new IllegalArgumentException("chunkSize: " + chunkSize + " has " + npc
                    + " page classes (expected: at most " + Long.SIZE + ")");
        }
        pagesToFloor = new int[chunkPages + 1];
        pagesToCeil = new int[chunkPages + 1];
        for (int pages = 1, floor = 0, ceil = 0; pages <= chunkPages; pages++) {
            while (floor + 1 < npc && pageClassPages[floor + 1] <= pages) {
                floor++;
            }
            while (pageClassPages[ceil] < pages) {
                ceil++;
            }
            pagesToFloor[pages] = floor;
            pagesToCeil[pages] = ceil;
        }
    }

    private static int gcd(int a, int b) {
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    /** The number of classes; the last is {@link #chunkSize}. */
    int nSizes() {
        return sizes.length;
    }

    /** The number of page classes (bins of free runs). */
    int nPageClasses() {
        return pageClassPages.length;
    }

    /** The index of the smallest class holding {@code size} bytes; {@code size} must be in [0, chunkSize]. */
    int sizeToIdx(int size) {
        if (size <= LOOKUP_MAX_BYTES) {
            return size == 0 ? 0 : lookup[(size - 1) >> 4];
        }
        // 2^b < size <= 2^(b+1): the group based at 2^b is group b - 5 (4 classes each, from index 0), and the
        // class inside it is how many steps of 2^(b-2) past the base the size reaches, rounded up.
        int b = 31 - Integer.numberOfLeadingZeros(size - 1);
        return ((b - 5) << 2) + ((size - 1 - (1 << b)) >> (b - 2));
    }

    /** The size in bytes of class {@code idx}. */
    int idxToSize(int idx) {
        return sizes[idx];
    }

    /** {@code size} rounded up to its class; {@code size} must be in [0, chunkSize]. */
    int normalize(int size) {
        return sizes[sizeToIdx(size)];
    }

    /** Whether class {@code idx} is cut into elements of a run rather than being a run itself. */
    boolean isSmall(int idx) {
        return idx < nSmall;
    }

    /** The pages of one run holding elements of small class {@code idx}. */
    int smallRunPages(int idx) {
        return smallRunPages[idx];
    }

    /** The pages of normal class {@code idx}. */
    int normalPages(int idx) {
        return sizes[idx] >> pageShift;
    }

    /** The bin of a free run of {@code pages} pages: the largest page class not above it. */
    int pagesToPageIdxFloor(int pages) {
        return pagesToFloor[pages];
    }

    /** The first bin whose runs all hold {@code pages} pages: the smallest page class not below it. */
    int pagesToPageIdxCeil(int pages) {
        return pagesToCeil[pages];
    }

    /** The page count of page class {@code pageIdx}. */
    int pageIdxToPages(int pageIdx) {
        return pageClassPages[pageIdx];
    }
}
