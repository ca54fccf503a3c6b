package io.weir.buffer;

import io.weir.util.platform.SystemProperties;
import java.lang.System.Logger.Level;

/** Picks {@link ByteBufAllocator#DEFAULT} from {@value #ALLOCATOR_TYPE_PROPERTY}, once. */
final class DefaultAllocatorChoice {
    /**
     * {@code io.weir.allocator.type}: which allocator {@link ByteBufAllocator#DEFAULT} is:
     * {@value #DEFAULT_ALLOCATOR_TYPE} ({@link UnpooledByteBufAllocator#DEFAULT}) or {@value #POOLED_ALLOCATOR_TYPE}
     * ({@link PooledByteBufAllocator#DEFAULT}); any other value is logged and ignored. The pooled allocator
     * becomes the default once it has per-thread caches and metrics.
     */
    static final String ALLOCATOR_TYPE_PROPERTY = "io.weir.allocator.type";
    /** Default of {@value #ALLOCATOR_TYPE_PROPERTY}. */
    static final String DEFAULT_ALLOCATOR_TYPE = "unpooled";
    /** The value of {@value #ALLOCATOR_TYPE_PROPERTY} selecting the pooled allocator. */
    static final String POOLED_ALLOCATOR_TYPE = "pooled";

    private DefaultAllocatorChoice() {
    }

    static ByteBufAllocator choose() {
        String type = SystemProperties.get(ALLOCATOR_TYPE_PROPERTY, DEFAULT_ALLOCATOR_TYPE);
        if (POOLED_ALLOCATOR_TYPE.equalsIgnoreCase(type)) {
            return PooledByteBufAllocator.DEFAULT;
        }
        if (!DEFAULT_ALLOCATOR_TYPE.equalsIgnoreCase(type)) {
            System.getLogger(DefaultAllocatorChoice.class.getName()).log(Level.WARNING,
                    "-D" + ALLOCATOR_TYPE_PROPERTY + "=" + type + " is not supported (expected "
                            + DEFAULT_ALLOCATOR_TYPE + " or " + POOLED_ALLOCATOR_TYPE + "); using "
                            + DEFAULT_ALLOCATOR_TYPE);
        }
        return UnpooledByteBufAllocator.DEFAULT;
    }
}
