package io.weir.metrics;

/**
 * What a pooled buffer allocator tells about its memory, per arena. Every method may be called from any thread and
 * reads the current state (an arena's lock may be taken briefly), so two calls may disagree while others allocate.
 */
public interface AllocatorMetrics {
    /** Heap arenas; 0 when heap buffers are not pooled. */
    int numHeapArenas();

    /** Direct arenas; 0 when direct buffers are not pooled. */
    int numDirectArenas();

    /**
     * Bytes heap arena {@code arena} holds from the system: every chunk, used or not, plus live huge buffers.
     *
     * @throws IndexOutOfBoundsException if {@code arena} is not in [0, {@link #numHeapArenas()})
     */
    long heapArenaUsedMemory(int arena);

    /**
     * Bytes direct arena {@code arena} holds from the system: every chunk, used or not, plus live huge buffers.
     *
     * @throws IndexOutOfBoundsException if {@code arena} is not in [0, {@link #numDirectArenas()})
     */
    long directArenaUsedMemory(int arena);

    /**
     * Bytes of heap arena {@code arena} handed out: held by live buffers or kept in thread caches, so not free
     * for another allocation from the arena (at most {@link #heapArenaUsedMemory}).
     *
     * @throws IndexOutOfBoundsException if {@code arena} is not in [0, {@link #numHeapArenas()})
     */
    long heapArenaPinnedMemory(int arena);

    /**
     * Bytes of direct arena {@code arena} handed out: held by live buffers or kept in thread caches.
     *
     * @throws IndexOutOfBoundsException if {@code arena} is not in [0, {@link #numDirectArenas()})
     */
    long directArenaPinnedMemory(int arena);

    /** Threads currently holding a thread cache. */
    int numThreadCaches();
}
