package io.weir.buffer;

import io.weir.util.platform.LoopLogger;
import io.weir.util.platform.SystemProperties;
import java.lang.System.Logger.Level;

/** Picks {@link ByteBufAllocator#DEFAULT} from {@value #ALLOCATOR_TYPE_PROPERTY}, once. */
final class DefaultAllocatorChoice {
    /**
     * {@code io.weir.allocator.type}: which allocator {@link ByteBufAllocator#DEFAULT} is:
     * {@value #POOLED_ALLOCATOR_TYPE} ({@link PooledByteBufAllocator#DEFAULT}) or {@value #UNPOOLED_ALLOCATOR_TYPE}
     * ({@link UnpooledByteBufAllocator#DEFAULT}); any other value is logged and ignored.
     */
    static final String ALLOCATOR_TYPE_PROPERTY = "io.weir.allocator.type";
    /** The value of {@value #ALLOCATOR_TYPE_PROPERTY} selecting the pooled allocator. */
    static final String POOLED_ALLOCATOR_TYPE = "pooled";
    /** The value of {@value #ALLOCATOR_TYPE_PROPERTY} selecting the unpooled allocator. */
    static final String UNPOOLED_ALLOCATOR_TYPE = "unpooled";
    /** Default of {@value #ALLOCATOR_TYPE_PROPERTY}. */
    static final String DEFAULT_ALLOCATOR_TYPE = POOLED_ALLOCATOR_TYPE;

    private DefaultAllocatorChoice() {
    }

    static ByteBufAllocator choose() {
        String type = SystemProperties.get(ALLOCATOR_TYPE_PROPERTY, DEFAULT_ALLOCATOR_TYPE);
        if (UNPOOLED_ALLOCATOR_TYPE.equalsIgnoreCase(type)) {
            return UnpooledByteBufAllocator.DEFAULT;
        }
        if (!POOLED_ALLOCATOR_TYPE.equalsIgnoreCase(type)) {
            LoopLogger.of(DefaultAllocatorChoice.class).log(Level.WARNING,
                    "-D" + ALLOCATOR_TYPE_PROPERTY + "=" + type + " is not supported (expected "
                            + POOLED_ALLOCATOR_TYPE + " or " + UNPOOLED_ALLOCATOR_TYPE + "); using "
                            + POOLED_ALLOCATOR_TYPE);
        }
        return PooledByteBufAllocator.DEFAULT;
    }
}
