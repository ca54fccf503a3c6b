package io.weir.buffer;

/**
 * One thread's binding to a heap and a direct arena, with a small cache of memory the thread freed recently,
 * per size class up to {@value #MAX_CACHED_BYTES} bytes: the next allocation of that class on this thread
 * reuses it without taking the arena's lock. Entries stay allocated in their chunk while cached; they go back
 * to the arena on {@link #freeAll()}, which runs when the thread ends (FastThreadLocal removal) and on
 * {@link PooledByteBufAllocator#trimCurrentThreadCache()}.
 * <p>
 * Confined to its thread, except {@link #freeAll} may run on it once more after removal (harmless: nothing is
 * cached any more and {@link #closed} stops new entries).
 */
final class PoolThreadCache {
    /** Largest size class cached, in bytes. */
    static final int MAX_CACHED_BYTES = 32 * 1024;
    /** Entries kept per small class. */
    static final int SMALL_ENTRIES = 256;
    /** Entries kept per cached normal class. */
    static final int NORMAL_ENTRIES = 64;

    final PoolArena<?> heapArena;
    final PoolArena<?> directArena;
    private final RegionCache[] heapCaches;
    private final RegionCache[] directCaches;
    private boolean closed;

    PoolThreadCache(PoolArena<?> heapArena, PoolArena<?> directArena, SizeClasses sizeClasses) {
        this.heapArena = heapArena;
        this.directArena = directArena;
        int classes = sizeClasses.sizeToIdx(MAX_CACHED_BYTES) + 1;
        heapCaches = new RegionCache[heapArena == null ? 0 : classes];
        directCaches = new RegionCache[directArena == null ? 0 : classes];
        for (int i = 0; i < classes; i++) {
            int entries = sizeClasses.isSmall(i) ? SMALL_ENTRIES : NORMAL_ENTRIES;
            if (heapArena != null) {
                heapCaches[i] = new RegionCache(entries);
            }
            if (directArena != null) {
                directCaches[i] = new RegionCache(entries);
            }
        }
    }

    private RegionCache[] cachesOf(PoolArena<?> arena) {
        return arena == heapArena ? heapCaches : arena == directArena ? directCaches : null;
    }

    /** Points {@code buf} at a cached region of class {@code sizeIdx} of {@code arena}, if there is one. */
    <T> boolean allocate(PoolArena<T> arena, PooledByteBuf<T> buf, int sizeIdx, int reqCapacity) {
        RegionCache[] caches = cachesOf(arena);
        if (caches == null || sizeIdx >= caches.length) {
            return false;
        }
        RegionCache cache = caches[sizeIdx];
        int i = cache.size - 1;
        if (i < 0) {
            return false;
        }
        cache.size = i;
        @SuppressWarnings("unchecked")
        PoolChunk<T> chunk = (PoolChunk<T>) cache.chunks[i];
        cache.chunks[i] = null;
        buf.initMemory(chunk, cache.handles[i], cache.offsets[i], reqCapacity, arena.sizeClasses.idxToSize(sizeIdx));
        return true;
    }

    /** Keeps a freed region of class {@code sizeIdx} for reuse; {@code false} if this cache has no room for it. */
    boolean add(PoolArena<?> arena, PoolChunk<?> chunk, long handle, int offset, int sizeIdx) {
        RegionCache[] caches = cachesOf(arena);
        if (closed || caches == null || sizeIdx >= caches.length) {
            return false;
        }
        RegionCache cache = caches[sizeIdx];
        int i = cache.size;
        if (i == cache.handles.length) {
            return false;
        }
        cache.chunks[i] = chunk;
        cache.handles[i] = handle;
        cache.offsets[i] = offset;
        cache.size = i + 1;
        return true;
    }

    /** Gives every cached region back to its arena; returns how many. */
    int freeAll() {
        return freeAll(heapArena, heapCaches) + freeAll(directArena, directCaches);
    }

    /** Frees everything and refuses new entries: the thread is gone. */
    void close() {
        closed = true;
        freeAll();
    }

    private static int freeAll(PoolArena<?> arena, RegionCache[] caches) {
        int freed = 0;
        for (RegionCache cache : caches) {
            for (int i = cache.size - 1; i >= 0; i--) {
                PoolChunk<?> chunk = cache.chunks[i];
                cache.chunks[i] = null;
                cache.size = i;
                arena.freeToArena(chunk, cache.handles[i]);
                freed++;
            }
        }
        return freed;
    }

    /** A bounded stack of freed regions of one size class, kept as parallel arrays (no entry objects). */
    private static final class RegionCache {
        final PoolChunk<?>[] chunks;
        final long[] handles;
        final int[] offsets;
        int size;

        RegionCache(int entries) {
            chunks = new PoolChunk<?>[entries];
            handles = new long[entries];
            offsets = new int[entries];
        }
    }
}
