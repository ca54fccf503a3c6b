package io.weir.buffer;

/**
 * One thread's binding to a heap and a direct arena, with a small cache of memory the thread freed recently,
 * per size class up to {@value #MAX_CACHED_BYTES} bytes: the next allocation of that class on this thread
 * reuses it without taking the arena's lock.
 * <p>
 * An entry is usually a whole buffer: a buffer released on the thread that allocated it is kept with its memory
 * still attached (chunk, offset, address), so reusing it is a pop and four field stores, with no arena, no
 * recycler and no address arithmetic. Memory freed without its buffer (the old slot of a buffer that grew) is
 * kept as a bare region. Entries stay allocated in their chunk while cached; they go back to the arena on
 * {@link #freeAll()}, which runs when the thread ends (FastThreadLocal removal) and on
 * {@link PooledByteBufAllocator#trimCurrentThreadCache()}, and every {@value #TRIM_INTERVAL_ALLOCATIONS}
 * cached allocations, when each class gives back the entries it did not need since the previous trim.
 * <p>
 * Confined to its {@link #owner} thread, except {@link #freeAll} may run on it once more after removal
 * (harmless: nothing is cached any more and {@link #closed} stops new entries).
 */
final class PoolThreadCache {
    /** Largest size class cached, in bytes. */
    static final int MAX_CACHED_BYTES = 64 * 1024;
    /** Entries kept per small class. */
    static final int SMALL_ENTRIES = 256;
    /** Most entries kept per cached normal class. */
    static final int NORMAL_ENTRIES = 64;
    /** Bytes a normal class may keep, so that large classes keep fewer entries (at least {@value #MIN_NORMAL_ENTRIES}). */
    static final int NORMAL_CLASS_BUDGET_BYTES = 1024 * 1024;
    /** Fewest entries kept per cached normal class. */
    static final int MIN_NORMAL_ENTRIES = 8;
    /**
     * Cached allocations between two trims. At a trim each class frees the entries beyond the number it handed
     * out since the previous one, oldest first: a thread whose traffic changed does not keep memory for
     * sizes it no longer uses.
     */
    static final int TRIM_INTERVAL_ALLOCATIONS = 8192;

    final PoolArena<?> heapArena;
    final PoolArena<?> directArena;
    /** The thread this cache belongs to: a buffer released on it may be kept here whole. */
    final Thread owner;
    private final SizeCache[] heapCaches;
    private final SizeCache[] directCaches;
    private int allocationsSinceTrim;
    private boolean closed;

    /** A cache for the calling thread. */
    PoolThreadCache(PoolArena<?> heapArena, PoolArena<?> directArena, SizeClasses sizeClasses) {
        this.heapArena = heapArena;
        this.directArena = directArena;
        this.owner = Thread.currentThread();
        int classes = sizeClasses.sizeToIdx(MAX_CACHED_BYTES) + 1;
        heapCaches = new SizeCache[heapArena == null ? 0 : classes];
        directCaches = new SizeCache[directArena == null ? 0 : classes];
        for (int i = 0; i < classes; i++) {
            int entries = sizeClasses.isSmall(i) ? SMALL_ENTRIES : normalEntries(sizeClasses.idxToSize(i));
            if (heapArena != null) {
                heapCaches[i] = new SizeCache(entries);
            }
            if (directArena != null) {
                directCaches[i] = new SizeCache(entries);
            }
        }
    }

    /** Entries kept for a normal class of {@code sizeBytes}. */
    static int normalEntries(int sizeBytes) {
        return Math.max(MIN_NORMAL_ENTRIES, Math.min(NORMAL_ENTRIES, NORMAL_CLASS_BUDGET_BYTES / sizeBytes));
    }

    private SizeCache[] cachesOf(PoolArena<?> arena) {
        return arena == directArena ? directCaches : arena == heapArena ? heapCaches : null;
    }

    /**
     * A buffer of class {@code sizeIdx} from {@code arena}'s cached memory, readied with one reference and
     * {@code reqCapacity} bytes, or null if this class has nothing cached.
     */
    @SuppressWarnings("unchecked")
    <T> PooledByteBuf<T> allocate(PoolArena<T> arena, int sizeIdx, int reqCapacity, int maxCapacity) {
        SizeCache[] caches = cachesOf(arena);
        if (caches == null || sizeIdx >= caches.length) {
            return null;
        }
        SizeCache cache = caches[sizeIdx];
        int i = cache.size - 1;
        if (i < 0) {
            return null;
        }
        cache.size = i;
        cache.handedOut++;
        PooledByteBuf<T> buf = (PooledByteBuf<T>) cache.bufs[i];
        if (buf != null) {
            cache.bufs[i] = null;
            buf.reuseCached(reqCapacity, maxCapacity);
        } else {
            buf = fromRegion(arena, cache, i, sizeIdx, reqCapacity, maxCapacity);
        }
        if (++allocationsSinceTrim >= TRIM_INTERVAL_ALLOCATIONS) {
            trim();
        }
        return buf;
    }

    /** A new buffer object over the bare region at entry {@code i}. */
    @SuppressWarnings("unchecked")
    private <T> PooledByteBuf<T> fromRegion(PoolArena<T> arena, SizeCache cache, int i, int sizeIdx, int reqCapacity,
            int maxCapacity) {
        PoolChunk<T> chunk = (PoolChunk<T>) cache.chunks[i];
        cache.chunks[i] = null;
        PooledByteBuf<T> buf = arena.newByteBuf(maxCapacity);
        buf.initMemory(chunk, cache.handles[i], cache.offsets[i], reqCapacity, sizeIdx,
                arena.sizeClasses.idxToSize(sizeIdx));
        buf.cache = this;
        return buf;
    }

    /**
     * Keeps {@code buf}, just released on the {@link #owner} thread, whole with its memory for reuse.
     *
     * @return {@code false} if this cache has no room for it (the caller frees it)
     */
    boolean offer(PooledByteBuf<?> buf) {
        SizeCache[] caches = cachesOf(buf.chunk.arena);
        int sizeIdx = buf.sizeIdx;
        if (closed || caches == null || sizeIdx < 0 || sizeIdx >= caches.length) {
            return false;
        }
        SizeCache cache = caches[sizeIdx];
        int i = cache.size;
        if (i == cache.bufs.length) {
            return false;
        }
        cache.bufs[i] = buf;
        cache.size = i + 1;
        return true;
    }

    /**
     * Keeps a freed region of class {@code sizeIdx} (without its buffer) for reuse.
     *
     * @return {@code false} if this cache has no room for it
     */
    boolean add(PoolArena<?> arena, PoolChunk<?> chunk, long handle, int offset, int sizeIdx) {
        SizeCache[] caches = cachesOf(arena);
        if (closed || caches == null || sizeIdx >= caches.length) {
            return false;
        }
        SizeCache cache = caches[sizeIdx];
        int i = cache.size;
        if (i == cache.bufs.length) {
            return false;
        }
        cache.chunks[i] = chunk;
        cache.handles[i] = handle;
        cache.offsets[i] = offset;
        cache.size = i + 1;
        return true;
    }

    /** Gives every cached entry back to its arena; returns how many. */
    int freeAll() {
        return freeAll(heapArena, heapCaches) + freeAll(directArena, directCaches);
    }

    /** Frees everything and refuses new entries: the thread is gone. */
    void close() {
        closed = true;
        freeAll();
    }

    /** Entries cached now, over every class and both arenas. */
    int size() {
        int n = 0;
        for (SizeCache cache : heapCaches) {
            n += cache.size;
        }
        for (SizeCache cache : directCaches) {
            n += cache.size;
        }
        return n;
    }

    /** Each class frees the entries it did not hand out since the previous trim, oldest first. */
    void trim() {
        allocationsSinceTrim = 0;
        trim(heapArena, heapCaches);
        trim(directArena, directCaches);
    }

    private static void trim(PoolArena<?> arena, SizeCache[] caches) {
        for (SizeCache cache : caches) {
            int excess = cache.size - cache.handedOut;
            cache.handedOut = 0;
            if (excess > 0) {
                // The oldest entries sit at the bottom of the stack.
                for (int i = 0; i < excess; i++) {
                    freeEntry(arena, cache, i);
                }
                int kept = cache.size - excess;
                System.arraycopy(cache.bufs, excess, cache.bufs, 0, kept);
                System.arraycopy(cache.chunks, excess, cache.chunks, 0, kept);
                System.arraycopy(cache.handles, excess, cache.handles, 0, kept);
                System.arraycopy(cache.offsets, excess, cache.offsets, 0, kept);
                java.util.Arrays.fill(cache.bufs, kept, cache.size, null);
                java.util.Arrays.fill(cache.chunks, kept, cache.size, null);
                cache.size = kept;
            }
        }
    }

    private static int freeAll(PoolArena<?> arena, SizeCache[] caches) {
        int freed = 0;
        for (SizeCache cache : caches) {
            for (int i = cache.size - 1; i >= 0; i--) {
                cache.size = i;
                freeEntry(arena, cache, i);
                freed++;
            }
            cache.handedOut = 0;
        }
        return freed;
    }

    private static void freeEntry(PoolArena<?> arena, SizeCache cache, int i) {
        PooledByteBuf<?> buf = cache.bufs[i];
        if (buf != null) {
            cache.bufs[i] = null;
            buf.freeCached();
        } else {
            PoolChunk<?> chunk = cache.chunks[i];
            cache.chunks[i] = null;
            arena.freeToArena(chunk, cache.handles[i]);
        }
    }

    /**
     * A bounded stack of freed memory of one size class. Entry {@code i} is the buffer {@code bufs[i]} with its
     * memory attached, or, when that is null, the bare region {@code chunks[i]}/{@code handles[i]}/
     * {@code offsets[i]} (parallel arrays: no entry objects).
     */
    private static final class SizeCache {
        final PooledByteBuf<?>[] bufs;
        final PoolChunk<?>[] chunks;
        final long[] handles;
        final int[] offsets;
        int size;
        /** Entries handed out since the last trim. */
        int handedOut;

        SizeCache(int entries) {
            bufs = new PooledByteBuf<?>[entries];
            chunks = new PoolChunk<?>[entries];
            handles = new long[entries];
            offsets = new int[entries];
        }
    }
}
