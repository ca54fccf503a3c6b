package io.weir.buffer;

import io.weir.util.ResourceLeakDetector;
import io.weir.util.ResourceLeakDetector.Level;
import io.weir.util.ResourceLeakTracker;
import java.util.Objects;
import org.junit.jupiter.api.Nested;

/**
 * The {@link ByteBuf} contract on leak-aware wrappers of both kinds, and on a recording view of a tracked buffer:
 * a sampled buffer must behave exactly like the buffer it stands for. Every tracker is closed by the contract's
 * own releases; a leak would still fail the class.
 */
class LeakAwareByteBufContractTest {
    private static final ResourceLeakDetector<ByteBuf> SIMPLE = ResourceLeakDetector.builder(ByteBuf.class)
            .level(Level.SIMPLE).samplingInterval(1).build();
    private static final ResourceLeakDetector<ByteBuf> PARANOID = ResourceLeakDetector.builder(ByteBuf.class)
            .level(Level.PARANOID).build();

    private static ResourceLeakTracker<ByteBuf> trackerFor(ResourceLeakDetector<ByteBuf> detector, ByteBuf buf) {
        return Objects.requireNonNull(detector.track(buf), "tracker");
    }

    /** The plain buffer under each wrapper: untracked (the allocator is not asked), direct. */
    private static AbstractByteBuf plain(int capacity, int maxCapacity) {
        return new UnpooledDirectByteBuf(UnpooledByteBufAllocator.DEFAULT, capacity, maxCapacity);
    }

    @Nested
    class Simple extends AbstractByteBufTest {
        @Override
        ByteBuf newBuffer(int capacity, int maxCapacity) {
            AbstractByteBuf buf = plain(capacity, maxCapacity);
            return new SimpleLeakAwareByteBuf(buf, trackerFor(SIMPLE, buf));
        }
    }

    @Nested
    class Advanced extends AbstractByteBufTest {
        @Override
        ByteBuf newBuffer(int capacity, int maxCapacity) {
            AbstractByteBuf buf = plain(capacity, maxCapacity);
            return new AdvancedLeakAwareByteBuf(buf, trackerFor(PARANOID, buf), true);
        }
    }

    /** A recording duplicate of a tracked buffer: the form derived buffers take at ADVANCED and PARANOID. */
    @Nested
    class AdvancedDerived extends AbstractByteBufTest {
        @Override
        ByteBuf newBuffer(int capacity, int maxCapacity) {
            AbstractByteBuf buf = plain(capacity, maxCapacity);
            return new AdvancedLeakAwareByteBuf(buf, trackerFor(PARANOID, buf), true).duplicate();
        }
    }
}
