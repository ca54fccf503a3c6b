package io.weir.buffer;

import io.weir.util.platform.DirectMemory;
import io.weir.util.platform.MemoryAccess;
import io.weir.util.platform.PlatformInfo;

/**
 * Allocates a fresh buffer for every request and frees its memory on the last release: heap buffers are left
 * to the garbage collector, direct buffers are handed back to {@link DirectMemory#global()} at once. Simple and
 * predictable, slower than pooling for frequent small allocations. Thread-safe.
 *
 * <p>Uses Unsafe-backed buffers when {@link PlatformInfo#hasUnsafe()} (heap) and
 * {@link MemoryAccess#hasAddress()} (direct), their VarHandle/ByteBuffer twins otherwise.
 */
public final class UnpooledByteBufAllocator extends AbstractByteBufAllocator {
    /** Prefers direct buffers where direct memory is freed promptly ({@link DirectMemory#isFreedImmediately()}). */
    public static final UnpooledByteBufAllocator DEFAULT = new UnpooledByteBufAllocator(true);

    private static final boolean UNSAFE_HEAP = PlatformInfo.hasUnsafe();
    private static final boolean UNSAFE_DIRECT = MemoryAccess.hasAddress();

    /**
     * @param preferDirect whether {@link #buffer()} returns direct buffers (honoured only where direct memory is
     *        freed promptly)
     */
    public UnpooledByteBufAllocator(boolean preferDirect) {
        super(preferDirect);
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return UNSAFE_HEAP ? new UnpooledUnsafeHeapByteBuf(this, initialCapacity, maxCapacity)
                : new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return UNSAFE_DIRECT ? new UnpooledUnsafeDirectByteBuf(this, initialCapacity, maxCapacity)
                : new UnpooledDirectByteBuf(this, initialCapacity, maxCapacity);
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }
}
