package io.weir.buffer;

/**
 * Creates buffers. Every buffer returned is owned by the caller, with a reference count of 1, and must be
 * released by its last owner. Implementations are thread-safe: any thread may allocate, and a buffer may be
 * released on another thread than the one that allocated it.
 *
 * <p>Capacities: {@code initialCapacity} is what the buffer holds at first, {@code maxCapacity} what
 * {@link ByteBuf#ensureWritable(int)} may grow it to. Every method throws {@link IllegalArgumentException}
 * when {@code initialCapacity} is negative or above {@code maxCapacity}, and
 * {@link io.weir.util.OutOfDirectMemoryError} when a direct buffer would exceed the direct-memory limit.
 */
public interface ByteBufAllocator {
    /**
     * The allocator Weir uses when none is configured, chosen once by {@code -Dio.weir.allocator.type}:
     * {@link PooledByteBufAllocator#DEFAULT} unless it says {@code unpooled}
     * ({@link UnpooledByteBufAllocator#DEFAULT}).
     */
    ByteBufAllocator DEFAULT = DefaultAllocatorChoice.choose();

    /** A heap or direct buffer, whichever this allocator prefers, of a default initial capacity. */
    ByteBuf buffer();

    /** A heap or direct buffer, whichever this allocator prefers. */
    ByteBuf buffer(int initialCapacity);

    /** A heap or direct buffer, whichever this allocator prefers. */
    ByteBuf buffer(int initialCapacity, int maxCapacity);

    /** A buffer suited to socket I/O: direct where direct memory is freed promptly, else heap. */
    ByteBuf ioBuffer();

    /** A buffer suited to socket I/O, as {@link #ioBuffer()}. */
    ByteBuf ioBuffer(int initialCapacity);

    /** A buffer suited to socket I/O, as {@link #ioBuffer()}. */
    ByteBuf ioBuffer(int initialCapacity, int maxCapacity);

    /** A heap buffer of a default initial capacity. */
    ByteBuf heapBuffer();

    /** A heap buffer. */
    ByteBuf heapBuffer(int initialCapacity);

    /** A heap buffer. */
    ByteBuf heapBuffer(int initialCapacity, int maxCapacity);

    /** A direct buffer of a default initial capacity. */
    ByteBuf directBuffer();

    /** A direct buffer. */
    ByteBuf directBuffer(int initialCapacity);

    /** A direct buffer. */
    ByteBuf directBuffer(int initialCapacity, int maxCapacity);

    /**
     * An empty composite whose growth and consolidation take heap or direct memory, whichever this allocator
     * prefers; it holds {@value CompositeByteBuf#DEFAULT_MAX_NUM_COMPONENTS} components before consolidating.
     */
    CompositeByteBuf compositeBuffer();

    /**
     * An empty composite as {@link #compositeBuffer()}, holding {@code maxNumComponents} components before
     * consolidating.
     *
     * @throws IllegalArgumentException if {@code maxNumComponents} is below 1
     */
    CompositeByteBuf compositeBuffer(int maxNumComponents);

    /** An empty composite whose growth and consolidation take heap memory, as {@link #compositeBuffer()}. */
    CompositeByteBuf compositeHeapBuffer();

    /** An empty composite taking heap memory, as {@link #compositeBuffer(int)}. */
    CompositeByteBuf compositeHeapBuffer(int maxNumComponents);

    /** An empty composite whose growth and consolidation take direct memory, as {@link #compositeBuffer()}. */
    CompositeByteBuf compositeDirectBuffer();

    /** An empty composite taking direct memory, as {@link #compositeBuffer(int)}. */
    CompositeByteBuf compositeDirectBuffer(int maxNumComponents);

    /** Whether direct buffers come from a pool (and so are cheap to allocate). */
    boolean isDirectBufferPooled();

    /**
     * The capacity a buffer grows to when it needs {@code minNewCapacity} bytes and may hold at most
     * {@code maxCapacity}: at least {@code minNewCapacity}, at most {@code maxCapacity}, rounded up so that a
     * run of small writes causes few reallocations.
     *
     * @throws IllegalArgumentException if {@code minNewCapacity} is negative or above {@code maxCapacity}
     */
    int calculateNewCapacity(int minNewCapacity, int maxCapacity);
}
