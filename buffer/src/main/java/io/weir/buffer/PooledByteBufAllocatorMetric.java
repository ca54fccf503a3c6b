package io.weir.buffer;

import io.weir.metrics.AllocatorMetrics;

/**
 * A live view of a {@link PooledByteBufAllocator}'s memory: every call reads the current state (taking each
 * arena's lock briefly), so two calls may disagree while other threads allocate. Thread-safe. As
 * {@link AllocatorMetrics} it goes into an {@link io.weir.metrics.WeirMetrics}:
 * {@code metrics.addAllocator("default", PooledByteBufAllocator.DEFAULT.metric())}.
 */
public final class PooledByteBufAllocatorMetric implements AllocatorMetrics {
    private final PoolArena<?>[] heapArenas;
    private final PoolArena<?>[] directArenas;
    private final SizeClasses sizeClasses;

    PooledByteBufAllocatorMetric(PoolArena<?>[] heapArenas, PoolArena<?>[] directArenas, SizeClasses sizeClasses) {
        this.heapArenas = heapArenas;
        this.directArenas = directArenas;
        this.sizeClasses = sizeClasses;
    }

    /** Heap arenas; 0 when heap buffers are unpooled. */
    @Override
    public int numHeapArenas() {
        return heapArenas.length;
    }

    /** Direct arenas; 0 when direct buffers are unpooled. */
    @Override
    public int numDirectArenas() {
        return directArenas.length;
    }

    @Override
    public long heapArenaUsedMemory(int arena) {
        return heapArenas[arena].usedMemory();
    }

    @Override
    public long directArenaUsedMemory(int arena) {
        return directArenas[arena].usedMemory();
    }

    @Override
    public long heapArenaPinnedMemory(int arena) {
        return heapArenas[arena].pinnedMemory();
    }

    @Override
    public long directArenaPinnedMemory(int arena) {
        return directArenas[arena].pinnedMemory();
    }

    /** Bytes per chunk. */
    public int chunkSize() {
        return sizeClasses.chunkSize;
    }

    /** Bytes per page. */
    public int pageSize() {
        return sizeClasses.pageSize;
    }

    /** Heap bytes held by the heap arenas: every chunk, used or not, plus live huge buffers. */
    public long usedHeapMemory() {
        return usedMemory(heapArenas);
    }

    /** Direct bytes held by the direct arenas: every chunk, used or not, plus live huge buffers. */
    public long usedDirectMemory() {
        return usedMemory(directArenas);
    }

    private static long usedMemory(PoolArena<?>[] arenas) {
        long used = 0;
        for (PoolArena<?> arena : arenas) {
            used += arena.usedMemory();
        }
        return used;
    }

    /**
     * Pooled chunks held by heap arena {@code arena}.
     *
     * @throws IndexOutOfBoundsException if {@code arena} is not in [0, {@link #numHeapArenas()})
     */
    public int heapArenaChunks(int arena) {
        return heapArenas[arena].numChunks();
    }

    /**
     * Pooled chunks held by direct arena {@code arena}.
     *
     * @throws IndexOutOfBoundsException if {@code arena} is not in [0, {@link #numDirectArenas()})
     */
    public int directArenaChunks(int arena) {
        return directArenas[arena].numChunks();
    }

    /** Pooled chunks held by all heap arenas. */
    public int numHeapChunks() {
        int n = 0;
        for (PoolArena<?> arena : heapArenas) {
            n += arena.numChunks();
        }
        return n;
    }

    /** Pooled chunks held by all direct arenas. */
    public int numDirectChunks() {
        int n = 0;
        for (PoolArena<?> arena : directArenas) {
            n += arena.numChunks();
        }
        return n;
    }

    /**
     * Threads currently holding a thread cache (bound to an arena); counted per arena kind, so the larger of
     * the heap and direct counts.
     */
    @Override
    public int numThreadCaches() {
        return Math.max(boundThreads(heapArenas), boundThreads(directArenas));
    }

    private static int boundThreads(PoolArena<?>[] arenas) {
        int n = 0;
        for (PoolArena<?> arena : arenas) {
            n += arena.numThreads.get();
        }
        return n;
    }

    /** Huge (above a chunk, unpooled) allocations made so far, heap and direct. */
    public long numHugeAllocations() {
        long n = 0;
        for (PoolArena<?> arena : heapArenas) {
            n += arena.numHugeAllocations();
        }
        for (PoolArena<?> arena : directArenas) {
            n += arena.numHugeAllocations();
        }
        return n;
    }

    @Override
    public String toString() {
        return "PooledByteBufAllocatorMetric(heapArenas: " + heapArenas.length + ", directArenas: "
                + directArenas.length + ", usedHeapMemory: " + usedHeapMemory() + ", usedDirectMemory: "
                + usedDirectMemory() + ", threadCaches: " + numThreadCaches() + ")";
    }
}
