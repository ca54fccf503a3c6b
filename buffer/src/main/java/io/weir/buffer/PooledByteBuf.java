package io.weir.buffer;

import io.weir.util.Recycler;

/**
 * A buffer over a piece of a {@link PoolChunk}: {@link #length} bytes at {@link #offset} of the chunk's memory,
 * inside a slot of {@link #maxLength} bytes (the size class). Freeing gives the slot back to the arena and the
 * object to its {@link Recycler}; a stale reference to a freed buffer must not be used, as the object may
 * already serve another allocation.
 */
abstract class PooledByteBuf<T> extends AbstractReferenceCountedByteBuf {
    private final Recycler.Handle<PooledByteBuf<T>> recyclerHandle;
    private PooledByteBufAllocator allocator;
    private int maxCapacity;
    PoolChunk<T> chunk;
    long handle;
    int offset;
    int length;
    int maxLength;
    /** The size class of the slot, or -1 for a huge (unpooled) buffer. */
    int sizeIdx;
    /**
     * The cache of the thread that allocated this buffer, or null if it had none: a release on that thread
     * keeps the buffer there whole.
     */
    PoolThreadCache cache;

    PooledByteBuf(Recycler.Handle<? extends PooledByteBuf<T>> recyclerHandle) {
        @SuppressWarnings("unchecked")
        Recycler.Handle<PooledByteBuf<T>> h = (Recycler.Handle<PooledByteBuf<T>>) recyclerHandle;
        this.recyclerHandle = h;
    }

    /** Readies a (possibly recycled) instance: one reference, both indexes 0, no memory yet. */
    final void reuse(int maxCapacity) {
        this.maxCapacity = maxCapacity;
        resetRefCnt();
        setIndex0(0, 0);
    }

    /**
     * Points this buffer at {@code length} bytes of {@code chunk} at {@code offset}, in a slot of class
     * {@code sizeIdx} (-1 for huge) of {@code maxLength} bytes; called by the arena and the thread cache.
     */
    final void initMemory(PoolChunk<T> chunk, long handle, int offset, int length, int sizeIdx, int maxLength) {
        this.allocator = chunk.arena.parent;
        this.chunk = chunk;
        this.handle = handle;
        this.offset = offset;
        this.length = length;
        this.sizeIdx = sizeIdx;
        this.maxLength = maxLength;
        memoryChanged(chunk.memory);
    }

    /**
     * Readies a buffer taken whole from its thread cache, memory still attached: one reference, both indexes 0,
     * {@code length} bytes of its slot.
     */
    final void reuseCached(int length, int maxCapacity) {
        this.maxCapacity = maxCapacity;
        this.length = length;
        resetRefCnt();
        setIndex0(0, 0);
    }

    /** Gives the memory of a buffer kept whole in a thread cache back to its arena, and the object to its pool. */
    final void freeCached() {
        PoolChunk<T> c = chunk;
        long h = handle;
        detach();
        c.arena.freeToArena(c, h);
        recyclerHandle.recycle(this);
    }

    private void detach() {
        chunk = null;
        cache = null;
        offset = 0;
        length = 0;
        maxLength = 0;
        // A stray access after the free (with bounds checks off) then fails instead of reaching pooled memory.
        memoryChanged(null);
    }

    /** Caches the typed memory reference of a new chunk, or of the freed sentinel when {@code memory} is null. */
    abstract void memoryChanged(T memory);

    /** Hands back an instance whose memory could not be allocated. */
    final void discardUnallocated() {
        recyclerHandle.recycle(this);
    }

    @Override
    public final int capacity() {
        return length;
    }

    @Override
    public final ByteBuf capacity(int newCapacity) {
        checkNewCapacity(newCapacity);
        if (newCapacity == length) {
            return this;
        }
        PoolChunk<T> c = chunk;
        if (!c.unpooled) {
            if (newCapacity > length) {
                if (newCapacity <= maxLength) {
                    // Still inside the size-class slot: the extra bytes are already ours.
                    length = newCapacity;
                    return this;
                }
            } else if (c.arena.sizeClasses.normalize(newCapacity) == maxLength) {
                // A shrink within the same size class keeps the slot: a copy would land in a slot just as big.
                length = newCapacity;
                trimIndexesToCapacity(newCapacity);
                return this;
            }
        }
        PoolArena<T> arena = c.arena;
        long oldHandle = handle;
        T oldMemory = c.memory;
        int oldOffset = offset;
        int oldLength = length;
        int oldMaxLength = maxLength;
        arena.allocateMemory(this, newCapacity);
        arena.copyMemory(oldMemory, oldOffset, chunk.memory, offset, Math.min(oldLength, newCapacity));
        arena.free(c, oldHandle, oldOffset, oldMaxLength);
        trimIndexesToCapacity(newCapacity);
        return this;
    }

    @Override
    public final int maxCapacity() {
        return maxCapacity;
    }

    @Override
    public final ByteBufAllocator alloc() {
        return allocator;
    }

    @Override
    public final ByteBuf unwrap() {
        return null;
    }

    @Override
    final void deallocate() {
        PoolThreadCache owner = cache;
        if (owner != null && owner.owner == Thread.currentThread() && owner.offer(this)) {
            // Kept whole, memory attached; the count (now freed) still refuses every access until reuse.
            return;
        }
        PoolChunk<T> c = chunk;
        long h = handle;
        int oldOffset = offset;
        int oldMaxLength = maxLength;
        detach();
        c.arena.free(c, h, oldOffset, oldMaxLength);
        recyclerHandle.recycle(this);
    }
}
