package io.weir.buffer;

import io.weir.util.concurrent.FastThreadLocal;
import io.weir.util.concurrent.FastThreadLocalThread;
import io.weir.util.platform.DirectMemory;
import io.weir.util.platform.LoopLogger;
import io.weir.util.platform.SystemProperties;

/**
 * A jemalloc-style pooling allocator: memory is taken from the system in chunks (4 MiB by default), which
 * are cut into runs of pages for normal sizes and into equal elements for small sizes; every request is
 * rounded up to a size class (16-byte quantum, four classes per doubling, so at most 25% is wasted); requests
 * above a chunk are served unpooled. Threads are spread over several heap and direct arenas, each with its
 * own lock. Buffers may be released on any thread.
 * <p>
 * Threads: event-loop threads ({@link FastThreadLocalThread}s) are bound for life to the least-used heap and
 * direct arena and get a small per-thread cache of memory they freed (size classes up to
 * {@value PoolThreadCache#MAX_CACHED_BYTES} bytes), so their allocations and releases mostly skip the arena's
 * lock; a buffer released on the thread that allocated it is even kept whole, ready for the next allocation of
 * its size class. Each class gives back what it did not reuse every
 * {@value PoolThreadCache#TRIM_INTERVAL_ALLOCATIONS} cached allocations, and the whole cache goes back to the
 * arenas when the thread ends or calls {@link #trimCurrentThreadCache()}.
 * Other threads, possibly millions of virtual ones, hold no per-thread state: they are spread over the arenas
 * by thread id and always use the arena's lock (unless {@value #CACHE_FOR_ALL_THREADS_PROPERTY} is set, for
 * applications with a few long-lived plain threads that clean up by calling
 * {@link io.weir.util.concurrent.FastThreadLocal#removeAll()} before they end).
 * <p>
 * Idle memory: an arena releases a chunk once all its buffers are freed (and no thread cache holds a piece of
 * it), keeping at most one free chunk.
 * <p>
 * Direct chunks count against {@link DirectMemory#global()}; when the limit is reached an allocation throws
 * {@link io.weir.util.OutOfDirectMemoryError}. Thread-safe.
 */
public final class PooledByteBufAllocator extends AbstractByteBufAllocator {
    /** {@code io.weir.allocator.pageSize}: the page size in bytes, a power of two in [4096, 65536]. */
    public static final String PAGE_SIZE_PROPERTY = "io.weir.allocator.pageSize";
    /** Default of {@value #PAGE_SIZE_PROPERTY}. */
    public static final int DEFAULT_PAGE_SIZE_BYTES = 8192;
    /**
     * {@code io.weir.allocator.chunkSize}: the chunk size in bytes, a power of two of at least 4 pages and at
     * most 16384 pages and 1 GiB.
     */
    public static final String CHUNK_SIZE_PROPERTY = "io.weir.allocator.chunkSize";
    /** Default of {@value #CHUNK_SIZE_PROPERTY}. */
    public static final int DEFAULT_CHUNK_SIZE_BYTES = 4 * 1024 * 1024;
    /**
     * {@code io.weir.allocator.numHeapArenas}: heap arenas of {@link #DEFAULT}; 0 serves heap buffers unpooled.
     * Default: twice the cores, but no more than a sixth of the maximum heap split into chunks (at least 1).
     */
    public static final String NUM_HEAP_ARENAS_PROPERTY = "io.weir.allocator.numHeapArenas";
    /**
     * {@code io.weir.allocator.numDirectArenas}: direct arenas of {@link #DEFAULT}; 0 serves direct buffers
     * unpooled. Default: twice the cores, but no more than a sixth of the direct-memory limit in chunks (at
     * least 1).
     */
    public static final String NUM_DIRECT_ARENAS_PROPERTY = "io.weir.allocator.numDirectArenas";
    /** {@code io.weir.allocator.preferDirect}: whether {@link #DEFAULT} hands out direct buffers by default. */
    public static final String PREFER_DIRECT_PROPERTY = "io.weir.allocator.preferDirect";
    /** Default of {@value #PREFER_DIRECT_PROPERTY}. */
    public static final boolean DEFAULT_PREFER_DIRECT = true;

    /**
     * {@code io.weir.allocator.cacheForAllThreads}: whether every thread, not only FastThreadLocalThreads, gets an
     * arena binding and a thread cache. A plain thread's cache is freed only by
     * {@link io.weir.util.concurrent.FastThreadLocal#removeAll()} or {@link #trimCurrentThreadCache()}; without
     * that, memory it cached stays allocated after it ends.
     */
    public static final String CACHE_FOR_ALL_THREADS_PROPERTY = "io.weir.allocator.cacheForAllThreads";
    /** Default of {@value #CACHE_FOR_ALL_THREADS_PROPERTY}. */
    public static final boolean DEFAULT_CACHE_FOR_ALL_THREADS = false;

    private static final boolean CACHE_FOR_ALL_THREADS =
            SystemProperties.getBoolean(CACHE_FOR_ALL_THREADS_PROPERTY, DEFAULT_CACHE_FOR_ALL_THREADS);
    private static final int PAGE_SIZE_BYTES = SystemProperties.getInt(PAGE_SIZE_PROPERTY, DEFAULT_PAGE_SIZE_BYTES);
    private static final int CHUNK_SIZE_BYTES = SystemProperties.getInt(CHUNK_SIZE_PROPERTY, DEFAULT_CHUNK_SIZE_BYTES);

    /** The shared instance configured by the {@code io.weir.allocator.*} properties. */
    public static final PooledByteBufAllocator DEFAULT = newDefault();

    private final SizeClasses sizeClasses;
    private final PoolArena.HeapArena[] heapArenas;
    private final PoolArena.DirectArena[] directArenas;
    private final boolean cacheForAllThreads;
    private final PooledByteBufAllocatorMetric metric;
    private final FastThreadLocal<PoolThreadCache> threadCache = new FastThreadLocal<>() {
        @Override
        protected PoolThreadCache initialValue() {
            return new PoolThreadCache(leastUsed(heapArenas), leastUsed(directArenas), sizeClasses);
        }

        @Override
        protected void onRemoval(PoolThreadCache cache) {
            cache.close();
            if (cache.heapArena != null) {
                cache.heapArena.numThreads.decrementAndGet();
            }
            if (cache.directArena != null) {
                cache.directArena.numThreads.decrementAndGet();
            }
        }
    };

    /** An allocator with the default arena counts, page size and chunk size. */
    public PooledByteBufAllocator(boolean preferDirect) {
        this(preferDirect, defaultArenas(Runtime.getRuntime().maxMemory()),
                defaultArenas(DirectMemory.global().maxDirectMemory()), PAGE_SIZE_BYTES, CHUNK_SIZE_BYTES);
    }

    /**
     * An allocator with the given shape.
     *
     * @param preferDirect whether {@link #buffer()} returns direct buffers
     * @param nHeapArena heap arenas; 0 serves heap buffers unpooled
     * @param nDirectArena direct arenas; 0 serves direct buffers unpooled
     * @param pageSize bytes per page: a power of two in [4096, 65536]
     * @param chunkSize bytes per chunk: a power of two of at least 4 and at most 16384 pages, at most 1 GiB
     * @throws IllegalArgumentException if an argument is out of range
     */
    public PooledByteBufAllocator(boolean preferDirect, int nHeapArena, int nDirectArena, int pageSize,
            int chunkSize) {
        this(preferDirect, nHeapArena, nDirectArena, pageSize, chunkSize, CACHE_FOR_ALL_THREADS,
                DirectMemory.global());
    }

    /**
     * As the public constructor, with direct chunks taken from {@code directMemory} and thread caches for every
     * thread if {@code cacheForAllThreads}.
     */
    PooledByteBufAllocator(boolean preferDirect, int nHeapArena, int nDirectArena, int pageSize, int chunkSize,
            boolean cacheForAllThreads, DirectMemory directMemory) {
        super(preferDirect);
        this.cacheForAllThreads = cacheForAllThreads;
        if (nHeapArena < 0) {
            throw new IllegalArgumentException("nHeapArena: " + nHeapArena + " (expected: >= 0)");
        }
        if (nDirectArena < 0) {
            throw new IllegalArgumentException("nDirectArena: " + nDirectArena + " (expected: >= 0)");
        }
        sizeClasses = new SizeClasses(pageSize, chunkSize);
        heapArenas = new PoolArena.HeapArena[nHeapArena];
        for (int i = 0; i < nHeapArena; i++) {
            heapArenas[i] = new PoolArena.HeapArena(this, sizeClasses);
        }
        directArenas = new PoolArena.DirectArena[nDirectArena];
        for (int i = 0; i < nDirectArena; i++) {
            directArenas[i] = new PoolArena.DirectArena(this, sizeClasses, directMemory);
        }
        metric = new PooledByteBufAllocatorMetric(heapArenas, directArenas, sizeClasses);
    }

    /** The configured shared instance, or the built-in shape (with a warning) if the properties are invalid. */
    private static PooledByteBufAllocator newDefault() {
        boolean preferDirect = SystemProperties.getBoolean(PREFER_DIRECT_PROPERTY, DEFAULT_PREFER_DIRECT);
        int heapArenas = defaultArenas(Runtime.getRuntime().maxMemory());
        int directArenas = defaultArenas(DirectMemory.global().maxDirectMemory());
        try {
            return new PooledByteBufAllocator(preferDirect,
                    SystemProperties.getInt(NUM_HEAP_ARENAS_PROPERTY, heapArenas),
                    SystemProperties.getInt(NUM_DIRECT_ARENAS_PROPERTY, directArenas), PAGE_SIZE_BYTES,
                    CHUNK_SIZE_BYTES);
        } catch (IllegalArgumentException e) {
            LoopLogger.of(PooledByteBufAllocator.class).log(System.Logger.Level.WARNING,
                    "invalid io.weir.allocator.* settings (" + e.getMessage() + "); using the defaults", e);
            return new PooledByteBufAllocator(preferDirect, heapArenas, directArenas, DEFAULT_PAGE_SIZE_BYTES,
                    DEFAULT_CHUNK_SIZE_BYTES);
        }
    }

    private static int defaultArenas(long maxMemoryBytes) {
        long byMemory = maxMemoryBytes / (CHUNK_SIZE_BYTES > 0 ? CHUNK_SIZE_BYTES : DEFAULT_CHUNK_SIZE_BYTES) / 2 / 3;
        return (int) Math.max(1, Math.min(2L * Runtime.getRuntime().availableProcessors(), byMemory));
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        PoolArena.HeapArena[] arenas = heapArenas;
        if (arenas.length == 0) {
            return new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
        }
        PoolThreadCache cache = currentThreadCacheOrBind();
        PoolArena.HeapArena arena = cache != null ? (PoolArena.HeapArena) cache.heapArena
                : arenas[spread(Thread.currentThread(), arenas.length)];
        return arena.allocate(cache, initialCapacity, maxCapacity);
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        PoolArena.DirectArena[] arenas = directArenas;
        if (arenas.length == 0) {
            return new UnpooledDirectByteBuf(this, initialCapacity, maxCapacity);
        }
        PoolThreadCache cache = currentThreadCacheOrBind();
        PoolArena.DirectArena arena = cache != null ? (PoolArena.DirectArena) cache.directArena
                : arenas[spread(Thread.currentThread(), arenas.length)];
        return arena.allocate(cache, initialCapacity, maxCapacity);
    }

    /** The calling thread's cache, made on first use, or null for a thread that gets none. */
    private PoolThreadCache currentThreadCacheOrBind() {
        return cacheForAllThreads || Thread.currentThread() instanceof FastThreadLocalThread ? threadCache.get() : null;
    }

    /** The calling thread's cache if it has one already; never makes one (a release must not bind a thread). */
    PoolThreadCache currentThreadCache() {
        return cacheForAllThreads || Thread.currentThread() instanceof FastThreadLocalThread
                ? threadCache.getIfExists() : null;
    }

    /**
     * Gives the memory cached by the calling thread back to the arenas, for a thread about to idle for long.
     * Buffers stay valid; the thread keeps its arena binding and caches again afterwards.
     *
     * @return whether the calling thread had a cache
     */
    public boolean trimCurrentThreadCache() {
        PoolThreadCache cache = threadCache.getIfExists();
        if (cache == null) {
            return false;
        }
        cache.freeAll();
        return true;
    }

    /**
     * Arena of a thread without a cache: spread by id so that such threads, possibly millions of virtual ones,
     * hold no per-thread state.
     */
    /** Entries held by the calling thread's cache, or -1 if it has none. */
    int currentThreadCachedEntries() {
        PoolThreadCache cache = threadCache.getIfExists();
        return cache == null ? -1 : cache.size();
    }

    @SuppressWarnings("deprecation") // Thread.threadId() is Java 19+; getId() is the same value on 17.
    private static int spread(Thread t, int n) {
        long id = t.getId();
        return (int) ((id ^ (id >>> 32)) & Integer.MAX_VALUE) % n;
    }

    private static PoolArena<?> leastUsed(PoolArena<?>[] arenas) {
        if (arenas.length == 0) {
            return null;
        }
        PoolArena<?> best = arenas[0];
        for (int i = 1; i < arenas.length; i++) {
            if (arenas[i].numThreads.get() < best.numThreads.get()) {
                best = arenas[i];
            }
        }
        best.numThreads.incrementAndGet();
        return best;
    }

    @Override
    public boolean isDirectBufferPooled() {
        return directArenas.length > 0;
    }

    /** A live view of this allocator's memory and arenas. */
    public PooledByteBufAllocatorMetric metric() {
        return metric;
    }

    SizeClasses sizeClasses() {
        return sizeClasses;
    }

    PoolArena<?>[] heapArenas() {
        return heapArenas;
    }

    PoolArena<?>[] directArenas() {
        return directArenas;
    }

    @Override
    public String toString() {
        return "PooledByteBufAllocator(preferDirect: " + prefersDirect() + ", heapArenas: " + heapArenas.length
                + ", directArenas: " + directArenas.length + ", pageSize: " + sizeClasses.pageSize
                + ", chunkSize: " + sizeClasses.chunkSize + ")";
    }
}
