package io.weir.buffer;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.util.platform.PlatformInfo;
import org.junit.jupiter.api.BeforeEach;

/** The contract on heap buffers reached through Unsafe (skipped when Unsafe is off). */
class UnsafeHeapByteBufTest extends AbstractByteBufTest {
    @BeforeEach
    void requireUnsafe() {
        assumeTrue(PlatformInfo.hasUnsafe(), "Unsafe is not available");
    }

    @Override
    ByteBuf newBuffer(int capacity, int maxCapacity) {
        return new UnpooledUnsafeHeapByteBuf(UnpooledByteBufAllocator.DEFAULT, capacity, maxCapacity);
    }
}
