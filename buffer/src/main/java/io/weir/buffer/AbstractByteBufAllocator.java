package io.weir.buffer;

import io.weir.util.platform.DirectMemory;

/**
 * The argument checks, defaults and growth policy shared by allocators; subclasses supply
 * {@link #newHeapBuffer} and {@link #newDirectBuffer}. Thread-safe if those are.
 *
 * <h2>Growth policy ({@link #calculateNewCapacity})</h2>
 * Up to {@value #GROWTH_THRESHOLD_BYTES} bytes a buffer doubles (from {@value #MIN_GROWN_CAPACITY_BYTES}),
 * so {@code n} one-byte writes cost {@code O(log n)} copies; beyond it, it grows to the next multiple of
 * {@value #GROWTH_THRESHOLD_BYTES}, so a large buffer never overshoots by more than 4 MiB. Both steps are
 * size classes a pooled allocator serves without waste (powers of two, then whole chunks); a pooled allocator
 * may round further to its own classes.
 *
 * <h2>Leak detection</h2>
 * When {@link io.weir.util.ResourceLeakDetector} samples a new buffer or composite, the caller gets a
 * leak-aware one: it behaves exactly as the buffer it stands for, closes its tracker on the release that frees
 * it (whichever derived buffer that release was made on), and at ADVANCED and PARANOID records each access so a
 * leak report shows where the buffer was last used. With leak detection DISABLED at startup this costs nothing.
 */
public abstract class AbstractByteBufAllocator implements ByteBufAllocator {
    /** The initial capacity of {@code buffer()}, {@code heapBuffer()} and friends, in bytes. */
    public static final int DEFAULT_INITIAL_CAPACITY_BYTES = 256;
    /** The maximum capacity when none is given, in bytes. */
    public static final int DEFAULT_MAX_CAPACITY_BYTES = Integer.MAX_VALUE;
    /** Below this, buffers grow by doubling; above, by this step. */
    public static final int GROWTH_THRESHOLD_BYTES = 4 * 1024 * 1024;
    /** The smallest capacity a growing buffer is given. */
    public static final int MIN_GROWN_CAPACITY_BYTES = 64;

    private final boolean preferDirect;
    /** Makes sampled buffers leak-aware; replaced only by tests, before the allocator is used. */
    ByteBufLeakDetection leakDetection = ByteBufLeakDetection.DEFAULT;

    /**
     * @param preferDirect whether {@code buffer()} returns direct buffers (only honoured when direct memory is
     *        freed promptly, see {@link DirectMemory#isFreedImmediately()})
     */
    protected AbstractByteBufAllocator(boolean preferDirect) {
        this.preferDirect = preferDirect && DirectMemory.isFreedImmediately();
    }

    /** Whether {@link #buffer()} returns direct buffers. */
    public final boolean prefersDirect() {
        return preferDirect;
    }

    @Override
    public ByteBuf buffer() {
        return buffer(DEFAULT_INITIAL_CAPACITY_BYTES, DEFAULT_MAX_CAPACITY_BYTES);
    }

    @Override
    public ByteBuf buffer(int initialCapacity) {
        return buffer(initialCapacity, DEFAULT_MAX_CAPACITY_BYTES);
    }

    @Override
    public ByteBuf buffer(int initialCapacity, int maxCapacity) {
        return preferDirect ? directBuffer(initialCapacity, maxCapacity) : heapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public ByteBuf ioBuffer() {
        return ioBuffer(DEFAULT_INITIAL_CAPACITY_BYTES, DEFAULT_MAX_CAPACITY_BYTES);
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity) {
        return ioBuffer(initialCapacity, DEFAULT_MAX_CAPACITY_BYTES);
    }

    @Override
    public ByteBuf ioBuffer(int initialCapacity, int maxCapacity) {
        return DirectMemory.isFreedImmediately() || isDirectBufferPooled()
                ? directBuffer(initialCapacity, maxCapacity) : heapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public ByteBuf heapBuffer() {
        return heapBuffer(DEFAULT_INITIAL_CAPACITY_BYTES, DEFAULT_MAX_CAPACITY_BYTES);
    }

    @Override
    public ByteBuf heapBuffer(int initialCapacity) {
        return heapBuffer(initialCapacity, DEFAULT_MAX_CAPACITY_BYTES);
    }

    @Override
    public ByteBuf heapBuffer(int initialCapacity, int maxCapacity) {
        checkCapacities(initialCapacity, maxCapacity);
        ByteBuf buf = newHeapBuffer(initialCapacity, maxCapacity);
        return ByteBufLeakDetection.ENABLED_AT_STARTUP ? leakDetection.track(buf) : buf;
    }

    @Override
    public ByteBuf directBuffer() {
        return directBuffer(DEFAULT_INITIAL_CAPACITY_BYTES, DEFAULT_MAX_CAPACITY_BYTES);
    }

    @Override
    public ByteBuf directBuffer(int initialCapacity) {
        return directBuffer(initialCapacity, DEFAULT_MAX_CAPACITY_BYTES);
    }

    @Override
    public ByteBuf directBuffer(int initialCapacity, int maxCapacity) {
        checkCapacities(initialCapacity, maxCapacity);
        ByteBuf buf = newDirectBuffer(initialCapacity, maxCapacity);
        return ByteBufLeakDetection.ENABLED_AT_STARTUP ? leakDetection.track(buf) : buf;
    }

    @Override
    public CompositeByteBuf compositeBuffer() {
        return compositeBuffer(CompositeByteBuf.DEFAULT_MAX_NUM_COMPONENTS);
    }

    @Override
    public CompositeByteBuf compositeBuffer(int maxNumComponents) {
        return newComposite(preferDirect, maxNumComponents);
    }

    @Override
    public CompositeByteBuf compositeHeapBuffer() {
        return compositeHeapBuffer(CompositeByteBuf.DEFAULT_MAX_NUM_COMPONENTS);
    }

    @Override
    public CompositeByteBuf compositeHeapBuffer(int maxNumComponents) {
        return newComposite(false, maxNumComponents);
    }

    @Override
    public CompositeByteBuf compositeDirectBuffer() {
        return compositeDirectBuffer(CompositeByteBuf.DEFAULT_MAX_NUM_COMPONENTS);
    }

    @Override
    public CompositeByteBuf compositeDirectBuffer(int maxNumComponents) {
        return newComposite(true, maxNumComponents);
    }

    private CompositeByteBuf newComposite(boolean direct, int maxNumComponents) {
        return ByteBufLeakDetection.ENABLED_AT_STARTUP ? leakDetection.newComposite(this, direct, maxNumComponents)
                : new CompositeByteBuf(this, direct, maxNumComponents);
    }

    private static void checkCapacities(int initialCapacity, int maxCapacity) {
        if (initialCapacity < 0 || initialCapacity > maxCapacity) {
            throw new IllegalArgumentException("initialCapacity: " + initialCapacity + ", maxCapacity: "
                    + maxCapacity + " (expected: 0 <= initialCapacity <= maxCapacity)");
        }
    }

    @Override
    public int calculateNewCapacity(int minNewCapacity, int maxCapacity) {
        if (minNewCapacity < 0 || minNewCapacity > maxCapacity) {
            throw new IllegalArgumentException("minNewCapacity: " + minNewCapacity + ", maxCapacity: "
                    + maxCapacity + " (expected: 0 <= minNewCapacity <= maxCapacity)");
        }
        if (minNewCapacity > GROWTH_THRESHOLD_BYTES) {
            // Round up to a multiple of the step; the long arithmetic cannot overflow near Integer.MAX_VALUE.
            long rounded = ((long) minNewCapacity + GROWTH_THRESHOLD_BYTES - 1)
                    / GROWTH_THRESHOLD_BYTES * GROWTH_THRESHOLD_BYTES;
            return (int) Math.min(rounded, maxCapacity);
        }
        int capacity = Math.max(MIN_GROWN_CAPACITY_BYTES, Integer.highestOneBit(Math.max(1, minNewCapacity - 1)) << 1);
        return Math.min(capacity, maxCapacity);
    }

    /** A new heap buffer; the arguments are already checked. */
    protected abstract ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity);

    /** A new direct buffer; the arguments are already checked. */
    protected abstract ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity);

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(preferDirect: " + preferDirect + ")";
    }
}
