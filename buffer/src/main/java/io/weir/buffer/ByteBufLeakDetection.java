package io.weir.buffer;

import io.weir.util.ResourceLeakDetector;
import io.weir.util.ResourceLeakDetector.Level;
import io.weir.util.ResourceLeakTracker;
import io.weir.util.platform.SystemProperties;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How allocators make the buffers they hand out leak-aware. Thread-safe.
 *
 * <p>For each new buffer the allocator asks {@link #track}: at the {@linkplain ResourceLeakDetector#level()
 * global level} DISABLED, or when the detector does not sample the buffer, it gets the buffer back unchanged;
 * otherwise a {@link SimpleLeakAwareByteBuf} (SIMPLE) or an owning {@link AdvancedLeakAwareByteBuf} (ADVANCED,
 * PARANOID). Composites are sampled here first and then built as {@link LeakAwareCompositeByteBuf}s, since
 * the composite type allocators promise cannot be wrapped.
 *
 * <p>Cost when off: with {@code -Dio.weir.leakDetection.level=DISABLED} given at startup,
 * {@link #ENABLED_AT_STARTUP} is {@code false} and allocators skip this class entirely (a static final the JIT
 * folds away); buffers are then never tracked, even if {@link ResourceLeakDetector#setLevel} raises the level
 * later. Otherwise an allocation reads the global level (one volatile load, a plain load on x86) and, below
 * PARANOID, draws one random number.
 */
final class ByteBufLeakDetection {
    /**
     * {@code false} when {@value ResourceLeakDetector#LEVEL_PROPERTY} said DISABLED at startup. Read from the
     * property rather than the current level, so that code setting the level before the first allocation
     * cannot switch tracking off for good by accident.
     */
    static final boolean ENABLED_AT_STARTUP = Level.parse(SystemProperties.get(ResourceLeakDetector.LEVEL_PROPERTY),
            ResourceLeakDetector.DEFAULT_LEVEL) != Level.DISABLED;

    /** Shared by every allocator; reports through the default reporter (log and global listeners). */
    static final ByteBufLeakDetection DEFAULT = new ByteBufLeakDetection(null);

    private final ResourceLeakDetector<ByteBuf> buffers;
    /** Tracks every composite it is given: {@link #newComposite} samples before building one. */
    private final ResourceLeakDetector<ByteBuf> composites;
    private final int samplingInterval;

    /**
     * @param reporter where the detectors report leaks; {@code null} for the default reporter (tests pass their
     *        own so that a deliberate leak does not fail the test class)
     */
    ByteBufLeakDetection(ResourceLeakDetector.LeakReporter reporter) {
        ResourceLeakDetector.Builder forBuffers = ResourceLeakDetector.builder(ByteBuf.class);
        ResourceLeakDetector.Builder forComposites = ResourceLeakDetector.builder(CompositeByteBuf.class)
                .samplingInterval(1);
        if (reporter != null) {
            forBuffers.reporter(reporter);
            forComposites.reporter(reporter);
        }
        this.buffers = forBuffers.build();
        this.samplingInterval = buffers.samplingInterval();
        this.composites = forComposites.build();
    }

    /**
     * {@code buf}, or a leak-aware wrapper of it if the detector samples it. The caller hands the result out in
     * place of {@code buf}.
     */
    ByteBuf track(ByteBuf buf) {
        Level level = ResourceLeakDetector.level();
        if (level == Level.DISABLED) {
            return buf;
        }
        ResourceLeakTracker<ByteBuf> tracker = buffers.track(buf);
        if (tracker == null) {
            return buf;
        }
        // Every ByteBuf is an AbstractByteBuf: ByteBuf's constructor is package-private.
        AbstractByteBuf tracked = (AbstractByteBuf) buf;
        return level == Level.SIMPLE ? new SimpleLeakAwareByteBuf(tracked, tracker)
                : new AdvancedLeakAwareByteBuf(tracked, tracker, true);
    }

    /** A new empty composite, leak-aware if sampled. */
    CompositeByteBuf newComposite(ByteBufAllocator alloc, boolean direct, int maxNumComponents) {
        Objects.requireNonNull(alloc, "alloc");
        Level level = ResourceLeakDetector.level();
        if (level == Level.DISABLED || level != Level.PARANOID && samplingInterval > 1
                && ThreadLocalRandom.current().nextInt(samplingInterval) != 0) {
            return new CompositeByteBuf(alloc, direct, maxNumComponents);
        }
        return new LeakAwareCompositeByteBuf(alloc, direct, maxNumComponents, composites, level != Level.SIMPLE);
    }
}
