package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DefaultAllocatorChoiceTest {
    private final String previous = System.getProperty(DefaultAllocatorChoice.ALLOCATOR_TYPE_PROPERTY);

    @AfterEach
    void restoreProperty() {
        if (previous == null) {
            System.clearProperty(DefaultAllocatorChoice.ALLOCATOR_TYPE_PROPERTY);
        } else {
            System.setProperty(DefaultAllocatorChoice.ALLOCATOR_TYPE_PROPERTY, previous);
        }
    }

    @Test
    void theSharedDefaultIsThePooledAllocator() {
        assertThat(ByteBufAllocator.DEFAULT).isSameAs(PooledByteBufAllocator.DEFAULT);
        assertThat(ByteBufAllocator.DEFAULT.isDirectBufferPooled()).isTrue();
    }

    @Test
    void pooledUnlessAskedOtherwise() {
        System.clearProperty(DefaultAllocatorChoice.ALLOCATOR_TYPE_PROPERTY);
        assertThat(DefaultAllocatorChoice.choose()).isSameAs(PooledByteBufAllocator.DEFAULT);
    }

    @Test
    void unpooledWhenAskedForInAnyCase() {
        System.setProperty(DefaultAllocatorChoice.ALLOCATOR_TYPE_PROPERTY, "Unpooled");
        assertThat(DefaultAllocatorChoice.choose()).isSameAs(UnpooledByteBufAllocator.DEFAULT);
    }

    @Test
    void anUnknownTypeFallsBackToPooled() {
        System.setProperty(DefaultAllocatorChoice.ALLOCATOR_TYPE_PROPERTY, "adaptive");
        assertThat(DefaultAllocatorChoice.choose()).isSameAs(PooledByteBufAllocator.DEFAULT);
    }
}
