package io.weir.buffer;

import io.weir.util.platform.SystemProperties;
import java.lang.System.Logger.Level;

/** Picks {@link ByteBufAllocator#DEFAULT} from {@value #ALLOCATOR_TYPE_PROPERTY}, once. */
final class DefaultAllocatorChoice {
    /**
     * {@code io.weir.allocator.type}: which allocator {@link ByteBufAllocator#DEFAULT} is. Only
     * {@value #DEFAULT_ALLOCATOR_TYPE} exists so far; any other value is logged and ignored. The pooled
     * allocator, when it lands, becomes the default.
     */
    static final String ALLOCATOR_TYPE_PROPERTY = "io.weir.allocator.type";
    /** Default of {@value #ALLOCATOR_TYPE_PROPERTY}. */
    static final String DEFAULT_ALLOCATOR_TYPE = "unpooled";

    private DefaultAllocatorChoice() {
    }

    static ByteBufAllocator choose() {
        String type = SystemProperties.get(ALLOCATOR_TYPE_PROPERTY, DEFAULT_ALLOCATOR_TYPE);
        if (!DEFAULT_ALLOCATOR_TYPE.equalsIgnoreCase(type)) {
            System.getLogger(DefaultAllocatorChoice.class.getName()).log(Level.WARNING,
                    "-D" + ALLOCATOR_TYPE_PROPERTY + "=" + type + " is not supported (only "
                            + DEFAULT_ALLOCATOR_TYPE + " exists so far); using " + DEFAULT_ALLOCATOR_TYPE);
        }
        return UnpooledByteBufAllocator.DEFAULT;
    }
}
