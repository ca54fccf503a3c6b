package io.weir.buffer;

import io.weir.util.platform.ByteArrays;
import io.weir.util.platform.DirectMemory;
import io.weir.util.platform.MemoryAccess;
import io.weir.util.platform.PlatformInfo;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One arena: a set of chunks and the subpage lists of every small class, guarded by one lock. Threads are
 * spread over several arenas so they rarely contend.
 *
 * <h2>Policy</h2>
 * <ul>
 * <li>Small classes (below 4 pages) come from the first subpage with a free element in the class's list; if
 *     there is none, a new run is cut from the first chunk that has room.</li>
 * <li>Normal classes (4 pages up to a chunk) come from the first chunk, in creation order, with a free run
 *     long enough (each chunk finds its best-fitting run in constant time). Filling old chunks first lets
 *     young ones drain and be released; this is simpler than jemalloc's usage-ordered chunk lists
 *     (qInit..q100) and costs one cheap free-bytes check per full chunk.</li>
 * <li>Huge requests (above a chunk) get memory of exactly their size outside the pool, freed on release.</li>
 * <li>A chunk that becomes entirely free is released when the arena already has another free chunk, so an
 *     idle arena keeps at most one chunk.</li>
 * <li>A small class's run that becomes entirely free goes back to its chunk, unless it is the class's only run
 *     and lies in the first chunk: then it stays, for the class's next allocation, so that a thread without a
 *     cache allocating and freeing one buffer at a time does not cut a run and build its subpage each time (the
 *     first chunk is the one an idle arena keeps, so this holds no other chunk).</li>
 * </ul>
 */
abstract class PoolArena<T> {
    final PooledByteBufAllocator parent;
    final SizeClasses sizeClasses;
    /** How many threads are bound to this arena; threads bind to the least-bound arena. */
    final AtomicInteger numThreads = new AtomicInteger();

    /** Largest size served from and kept in thread caches: no class above a chunk exists to be cached. */
    private final int maxCachedBytes;
    private final ReentrantLock lock = new ReentrantLock();
    private final PoolSubpage<T>[] smallPools;
    @SuppressWarnings("unchecked")
    private PoolChunk<T>[] chunks = new PoolChunk[4];
    private int numChunks;
    private final AtomicLong hugeBytes = new AtomicLong();
    private final AtomicLong hugeAllocations = new AtomicLong();

    @SuppressWarnings("unchecked")
    PoolArena(PooledByteBufAllocator parent, SizeClasses sizeClasses) {
        this.parent = parent;
        this.sizeClasses = sizeClasses;
        this.maxCachedBytes = Math.min(PoolThreadCache.MAX_CACHED_BYTES, sizeClasses.chunkSize);
        smallPools = new PoolSubpage[sizeClasses.nSmall];
        for (int i = 0; i < smallPools.length; i++) {
            smallPools[i] = new PoolSubpage<>();
        }
    }

    /** A new buffer of {@code reqCapacity} bytes (unspecified content), indexes 0, one reference. */
    final PooledByteBuf<T> allocate(PoolThreadCache cache, int reqCapacity, int maxCapacity) {
        if (cache != null && reqCapacity <= maxCachedBytes) {
            PooledByteBuf<T> cached = cache.allocate(this, sizeClasses.sizeToIdx(reqCapacity), reqCapacity, maxCapacity);
            if (cached != null) {
                return cached;
            }
        }
        return allocateNew(cache, reqCapacity, maxCapacity);
    }

    private PooledByteBuf<T> allocateNew(PoolThreadCache cache, int reqCapacity, int maxCapacity) {
        PooledByteBuf<T> buf = newByteBuf(maxCapacity);
        try {
            allocateMemory(buf, reqCapacity);
        } catch (Throwable t) {
            buf.discardUnallocated();
            throw t;
        }
        buf.cache = cache;
        return buf;
    }

    /** Points {@code buf} at new memory of at least {@code reqCapacity} bytes, taken from this arena. */
    final void allocateMemory(PooledByteBuf<T> buf, int reqCapacity) {
        SizeClasses sc = sizeClasses;
        if (reqCapacity > sc.chunkSize) {
            PoolChunk<T> huge = new PoolChunk<>(this, newMemory(reqCapacity), reqCapacity);
            hugeBytes.addAndGet(reqCapacity);
            hugeAllocations.incrementAndGet();
            buf.initMemory(huge, 0, 0, reqCapacity, -1, reqCapacity);
            return;
        }
        int sizeIdx = sc.sizeToIdx(reqCapacity);
        lock.lock();
        try {
            PoolChunk<T> chunk;
            long handle;
            if (sc.isSmall(sizeIdx)) {
                PoolSubpage<T> head = smallPools[sizeIdx];
                PoolSubpage<T> subpage = head.next;
                if (subpage != head) {
                    chunk = subpage.chunk;
                    handle = subpage.allocate();
                } else {
                    handle = PoolChunk.NO_HANDLE;
                    chunk = null;
                    int runBytes = sc.smallRunPages(sizeIdx) << sc.pageShift;
                    for (int i = 0; i < numChunks; i++) {
                        PoolChunk<T> c = chunks[i];
                        if (c.freeBytes() >= runBytes && (handle = c.allocateSubpage(sizeIdx, head)) != PoolChunk.NO_HANDLE) {
                            chunk = c;
                            break;
                        }
                    }
                    if (chunk == null) {
                        chunk = newChunk();
                        handle = chunk.allocateSubpage(sizeIdx, head);
                    }
                }
            } else {
                int pages = sc.normalPages(sizeIdx);
                int runBytes = pages << sc.pageShift;
                handle = PoolChunk.NO_HANDLE;
                chunk = null;
                for (int i = 0; i < numChunks; i++) {
                    PoolChunk<T> c = chunks[i];
                    if (c.freeBytes() >= runBytes && (handle = c.allocateRun(pages)) != PoolChunk.NO_HANDLE) {
                        chunk = c;
                        break;
                    }
                }
                if (chunk == null) {
                    chunk = newChunk();
                    handle = chunk.allocateRun(pages);
                }
            }
            buf.initMemory(chunk, handle, chunk.byteOffset(handle), reqCapacity, sizeIdx, sc.idxToSize(sizeIdx));
        } finally {
            lock.unlock();
        }
    }

    private PoolChunk<T> newChunk() {
        PoolChunk<T> chunk = new PoolChunk<>(this, newMemory(sizeClasses.chunkSize), sizeClasses);
        if (numChunks == chunks.length) {
            chunks = java.util.Arrays.copyOf(chunks, numChunks * 2);
        }
        chunks[numChunks++] = chunk;
        return chunk;
    }

    /**
     * Gives the memory of {@code handle} in {@code chunk} (at {@code offset}, a slot of {@code normCapacity}
     * bytes) back: to the calling thread's cache if it has one for this arena with room, else to the arena.
     * Callable from any thread.
     */
    final void free(PoolChunk<T> chunk, long handle, int offset, int normCapacity) {
        if (!chunk.unpooled && normCapacity <= maxCachedBytes) {
            PoolThreadCache cache = parent.currentThreadCache();
            if (cache != null && cache.add(this, chunk, handle, offset, sizeClasses.sizeToIdx(normCapacity))) {
                return;
            }
        }
        freeToArena(chunk, handle);
    }

    /** Gives the memory of {@code handle} in {@code chunk} back to this arena; callable from any thread. */
    final void freeToArena(PoolChunk<?> pooledOrHuge, long handle) {
        @SuppressWarnings("unchecked")
        PoolChunk<T> chunk = (PoolChunk<T>) pooledOrHuge;
        if (chunk.unpooled) {
            hugeBytes.addAndGet(-chunk.chunkSize);
            freeMemory(chunk.memory);
            return;
        }
        lock.lock();
        try {
            // Only the first chunk keeps an entirely free run for its class: the one an idle arena keeps anyway.
            chunk.free(handle, chunk == chunks[0]);
            if (chunk.isIdle()) {
                releaseSpareChunks();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * After a free left a chunk idle: an idle arena keeps one chunk, the first idle one in creation order (the first
     * chunk, when it keeps free subpage runs, is never empty, and is always that one); every other empty chunk is
     * released.
     */
    private void releaseSpareChunks() {
        boolean keptOne = false;
        for (int i = 0; i < numChunks;) {
            PoolChunk<T> c = chunks[i];
            if (c.isIdle()) {
                if (!keptOne) {
                    keptOne = true;
                } else if (c.isEmpty()) {
                    System.arraycopy(chunks, i + 1, chunks, i, numChunks - i - 1);
                    chunks[--numChunks] = null;
                    freeMemory(c.memory);
                    continue;
                }
            }
            i++;
        }
    }

    /** Pooled chunks currently held (huge allocations not counted). */
    final int numChunks() {
        lock.lock();
        try {
            return numChunks;
        } finally {
            lock.unlock();
        }
    }

    /** Bytes held from the system: every pooled chunk, whether used or not, plus live huge buffers. */
    final long usedMemory() {
        return (long) numChunks() * sizeClasses.chunkSize + hugeBytes.get();
    }

    /**
     * Bytes handed out: the allocated runs of every chunk (held by live buffers or kept in thread caches) plus live
     * huge buffers.
     */
    final long pinnedMemory() {
        long pinned = 0;
        lock.lock();
        try {
            for (int i = 0; i < numChunks; i++) {
                PoolChunk<T> c = chunks[i];
                pinned += sizeClasses.chunkSize - c.freeBytes() - c.idleSubpageBytes;
            }
        } finally {
            lock.unlock();
        }
        return pinned + hugeBytes.get();
    }

    /** Huge (unpooled) allocations made so far. */
    final long numHugeAllocations() {
        return hugeAllocations.get();
    }

    abstract boolean isDirect();

    abstract PooledByteBuf<T> newByteBuf(int maxCapacity);

    abstract T newMemory(int size);

    abstract void freeMemory(T memory);

    /** Copies {@code length} bytes between two places in this arena's kind of memory. */
    abstract void copyMemory(T src, int srcOffset, T dst, int dstOffset, int length);

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(chunks: " + numChunks() + ", huge bytes: " + hugeBytes.get()
                + ", threads: " + numThreads.get() + ")";
    }

    /** An arena of {@code byte[]} chunks. */
    static final class HeapArena extends PoolArena<byte[]> {
        private static final boolean UNSAFE_HEAP = PlatformInfo.hasUnsafe();

        HeapArena(PooledByteBufAllocator parent, SizeClasses sizeClasses) {
            super(parent, sizeClasses);
        }

        @Override
        boolean isDirect() {
            return false;
        }

        @Override
        PooledByteBuf<byte[]> newByteBuf(int maxCapacity) {
            return UNSAFE_HEAP ? PooledUnsafeHeapByteBuf.newInstance(maxCapacity)
                    : PooledHeapByteBuf.newInstance(maxCapacity);
        }

        @Override
        byte[] newMemory(int size) {
            return ByteArrays.allocateUninitialized(size);
        }

        @Override
        void freeMemory(byte[] memory) {
            // The garbage collector takes it once the arena forgets it.
        }

        @Override
        void copyMemory(byte[] src, int srcOffset, byte[] dst, int dstOffset, int length) {
            System.arraycopy(src, srcOffset, dst, dstOffset, length);
        }
    }

    /** An arena of direct {@code ByteBuffer} chunks taken from, and returned to, one {@link DirectMemory}. */
    static final class DirectArena extends PoolArena<ByteBuffer> {
        private static final boolean UNSAFE_DIRECT = MemoryAccess.hasAddress();

        private final DirectMemory directMemory;

        DirectArena(PooledByteBufAllocator parent, SizeClasses sizeClasses, DirectMemory directMemory) {
            super(parent, sizeClasses);
            this.directMemory = directMemory;
        }

        @Override
        boolean isDirect() {
            return true;
        }

        @Override
        PooledByteBuf<ByteBuffer> newByteBuf(int maxCapacity) {
            return UNSAFE_DIRECT ? PooledUnsafeDirectByteBuf.newInstance(maxCapacity)
                    : PooledDirectByteBuf.newInstance(maxCapacity);
        }

        @Override
        ByteBuffer newMemory(int size) {
            return directMemory.allocate(size);
        }

        @Override
        void freeMemory(ByteBuffer memory) {
            directMemory.free(memory);
        }

        @Override
        void copyMemory(ByteBuffer src, int srcOffset, ByteBuffer dst, int dstOffset, int length) {
            MemoryAccess.copyMemory(src, srcOffset, dst, dstOffset, length);
        }
    }
}
