package io.weir.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.util.IllegalReferenceCountException;
import io.weir.util.ResourceLeakDetector;
import io.weir.util.ResourceLeakDetector.Level;
import io.weir.util.ResourceLeakTracker;
import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.nio.ReadOnlyBufferException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Buffers handed out when the leak detector samples them: a leak is reported with where the buffer was used, a
 * release through any derived buffer closes the tracker exactly once, and nothing else about the buffer changes.
 * Deliberate leaks go to this class's own reporter, so they do not fail the class (see LeakDetectionExtension).
 */
class LeakAwareByteBufTest {
    private static final int MAX_GC_ROUNDS = 100;
    private static final long GC_WAIT_MILLIS = 100;

    private final List<String> reports = new CopyOnWriteArrayList<>();
    private final ByteBufLeakDetection detection = new ByteBufLeakDetection((type, report) -> reports.add(report));

    private <A extends AbstractByteBufAllocator> A watched(A alloc) {
        alloc.leakDetection = detection;
        return alloc;
    }

    private PooledByteBufAllocator pooled() {
        return watched(new PooledByteBufAllocator(true, 1, 1, 8192, 1 << 20));
    }

    /** Collects garbage until {@code expected} reports arrived (bounded), then returns them. */
    private List<String> awaitReports(int expected) throws InterruptedException {
        for (int i = 0; i < MAX_GC_ROUNDS && reports.size() < expected; i++) {
            ReferenceQueue<Object> queue = new ReferenceQueue<>();
            PhantomReference<Object> sentinel = new PhantomReference<>(new Object(), queue);
            System.gc();
            queue.remove(GC_WAIT_MILLIS);
            sentinel.clear();
            ResourceLeakDetector.reportCollectedLeaks();
        }
        return reports;
    }

    /** Allocates through {@code make}, uses the buffer and drops it unreleased. */
    private static void leakOne(Function<Integer, ByteBuf> make, String hint) {
        ByteBuf buf = make.apply(64);
        buf.writeInt(42);
        buf.touch(hint);
        buf.readByte();
    }

    private static void allocateAndRelease(Function<Integer, ByteBuf> make) {
        ByteBuf buf = make.apply(64);
        buf.writeLong(7);
        assertThat(buf.release()).isTrue();
    }

    @Test
    void aLeakedPooledDirectBufferIsReportedWithItsLastAccesses() throws Exception {
        PooledByteBufAllocator alloc = pooled();
        leakOne(alloc::directBuffer, "pooled-direct-hint");
        assertThat(awaitReports(1)).hasSize(1);
        assertThat(reports.get(0)).contains("LEAK", ByteBuf.class.getName(), "Created at:", "Recent access records",
                "Hint: pooled-direct-hint", "LeakAwareByteBufTest.leakOne(", "writeInt", "readByte");
    }

    @Test
    void aLeakedPooledHeapAndUnpooledBuffersAreReported() throws Exception {
        PooledByteBufAllocator pooled = pooled();
        UnpooledByteBufAllocator unpooled = watched(new UnpooledByteBufAllocator(true));
        leakOne(pooled::heapBuffer, "pooled-heap");
        leakOne(unpooled::heapBuffer, "unpooled-heap");
        leakOne(unpooled::directBuffer, "unpooled-direct");
        assertThat(awaitReports(3)).hasSize(3);
        assertThat(String.join("\n", reports)).contains("pooled-heap", "unpooled-heap", "unpooled-direct");
    }

    @Test
    void aLeakedCompositeIsReportedAndReleasesNothingTwice() throws Exception {
        UnpooledByteBufAllocator alloc = watched(new UnpooledByteBufAllocator(false));
        leakComposite(alloc);
        assertThat(awaitReports(1)).hasSize(1);
        assertThat(reports.get(0)).contains("LEAK", CompositeByteBuf.class.getName(), "Hint: composite-hint",
                "addComponent");
    }

    private static void leakComposite(ByteBufAllocator alloc) {
        CompositeByteBuf composite = alloc.compositeBuffer();
        assertThat(composite).isInstanceOf(LeakAwareCompositeByteBuf.class);
        composite.addComponent(true, Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
        composite.touch("composite-hint");
    }

    @Test
    void releasedBuffersAreNotReported() throws Exception {
        PooledByteBufAllocator pooled = pooled();
        UnpooledByteBufAllocator unpooled = watched(new UnpooledByteBufAllocator(true));
        allocateAndRelease(pooled::directBuffer);
        allocateAndRelease(pooled::heapBuffer);
        allocateAndRelease(unpooled::heapBuffer);
        CompositeByteBuf composite = unpooled.compositeBuffer();
        composite.addComponent(true, unpooled.heapBuffer(8).writeLong(1));
        assertThat(composite.release()).isTrue();
        // A real leak in the same collections proves the collector ran; only it may be reported.
        leakOne(unpooled::heapBuffer, "the-real-leak");
        assertThat(awaitReports(1)).hasSize(1);
        assertThat(reports.get(0)).contains("the-real-leak");
    }

    @Test
    void aLeakedRetainedSliceIsReportedThoughItsParentWasReleased() throws Exception {
        PooledByteBufAllocator alloc = pooled();
        leakRetainedSlice(alloc);
        assertThat(awaitReports(1)).hasSize(1);
        assertThat(reports.get(0)).contains("Hint: slice-hint", "LeakAwareByteBufTest.leakRetainedSlice(");
    }

    private static void leakRetainedSlice(ByteBufAllocator alloc) {
        ByteBuf buf = alloc.heapBuffer(16).writeLong(1).writeLong(2);
        ByteBuf slice = buf.retainedSlice(8, 8);
        assertThat(buf.release()).isFalse();
        assertThat(slice.getLong(0)).isEqualTo(2);
        // The newest record is always kept; older ones may be dropped past targetRecords.
        slice.touch("slice-hint");
    }

    @Test
    void releasingThroughRetainedDerivedBuffersFreesAndClosesWithoutAReport() throws Exception {
        UnpooledByteBufAllocator alloc = watched(new UnpooledByteBufAllocator(true));
        ByteBuf buf = alloc.directBuffer(16).writeLong(1).writeLong(2);
        ByteBuf slice = buf.retainedSlice(0, 8);
        ByteBuf duplicate = slice.retainedDuplicate();
        ByteBuf readOnly = duplicate.asReadOnly().retain();
        assertThat(buf.refCnt()).isEqualTo(4);
        assertThat(buf.release()).isFalse();
        assertThat(slice.release()).isFalse();
        assertThat(duplicate.release()).isFalse();
        assertThat(readOnly.release()).as("the last release frees the memory").isTrue();
        assertThat(buf.refCnt()).isZero();
        assertThatThrownBy(() -> buf.getByte(0)).isInstanceOf(IllegalReferenceCountException.class);
        leakOne(alloc::heapBuffer, "the-real-leak");
        assertThat(awaitReports(1)).hasSize(1);
        assertThat(reports.get(0)).contains("the-real-leak");
    }

    @Test
    void theTrackerClosesExactlyOnceWhicheverHandleFreesTheBuffer() {
        for (Level level : new Level[] {Level.SIMPLE, Level.PARANOID}) {
            CountingTracker tracker = new CountingTracker();
            ByteBuf buf = wrap(Unpooled.buffer(16), tracker, level);
            ByteBuf slice = buf.readRetainedSlice(0).retainedSlice();
            ByteBuf duplicate = buf.retainedDuplicate();
            assertThat(buf.refCnt()).isEqualTo(4);
            assertThat(duplicate.release(2)).isFalse();
            assertThat(slice.release()).isFalse();
            assertThat(tracker.closes).hasValue(0);
            assertThat(buf.asReadOnly().release()).isTrue();
            assertThat(tracker.closes).as(level.name()).hasValue(1);
            assertThatThrownBy(buf::release).isInstanceOf(IllegalReferenceCountException.class);
            assertThatThrownBy(slice::release).isInstanceOf(IllegalReferenceCountException.class);
            assertThat(tracker.closes).as("a failed release closes nothing").hasValue(1);
        }
    }

    private static ByteBuf wrap(ByteBuf buf, ResourceLeakTracker<ByteBuf> tracker, Level level) {
        return level == Level.SIMPLE ? new SimpleLeakAwareByteBuf((AbstractByteBuf) buf, tracker)
                : new AdvancedLeakAwareByteBuf((AbstractByteBuf) buf, tracker, true);
    }

    @Test
    void advancedWrappersRecordAccessesOnTheBufferAndEveryDerivedBufferButNotIndexGetters() {
        CountingTracker tracker = new CountingTracker();
        ByteBuf buf = wrap(Unpooled.directBuffer(32), tracker, Level.PARANOID);
        buf.writeInt(1);
        assertThat(tracker.records).hasValue(1);
        buf.readerIndex();
        buf.writerIndex();
        buf.capacity();
        buf.readableBytes();
        buf.isReadable();
        assertThat(tracker.records).as("index and capacity getters").hasValue(1);
        ByteBuf slice = buf.slice(0, 8);
        ByteBuf sliceOfSlice = slice.slice(0, 4);
        ByteBuf readOnly = sliceOfSlice.asReadOnly();
        int before = tracker.records.get();
        assertThat(readOnly.getInt(0)).isEqualTo(1);
        assertThat(tracker.records.get()).as("a read through a view of a view of a view").isEqualTo(before + 1);
        buf.nioBuffer(0, 4);
        buf.touch("hint");
        assertThat(tracker.records.get()).isEqualTo(before + 3);
        assertThat(tracker.hints).containsExactly("hint");
        assertThat(buf.release()).isTrue();
        assertThat(tracker.closes).hasValue(1);
    }

    @Test
    void simpleWrappersRecordNothingAndHandOutPlainViews() {
        CountingTracker tracker = new CountingTracker();
        ByteBuf buf = wrap(Unpooled.buffer(32), tracker, Level.SIMPLE);
        buf.writeLong(3).readInt();
        buf.touch("ignored");
        ByteBuf slice = buf.slice();
        assertThat(slice).isInstanceOf(SlicedByteBuf.class);
        assertThat(slice.getInt(0)).isEqualTo(3);
        assertThat(tracker.records).hasValue(0);
        assertThat(tracker.hints).isEmpty();
        assertThat(buf.release()).isTrue();
        assertThat(tracker.closes).hasValue(1);
    }

    @Test
    void unwrapNeverHandsOutTheUntrackedBufferAndViewsUnwrapToTheTrackedOne() {
        for (Level level : new Level[] {Level.SIMPLE, Level.PARANOID}) {
            CountingTracker tracker = new CountingTracker();
            ByteBuf buf = wrap(Unpooled.buffer(16), tracker, level);
            assertThat(buf.unwrap()).as("as an untracked heap buffer answers").isNull();
            assertThat(buf.slice(2, 4).unwrap()).isSameAs(buf);
            assertThat(buf.duplicate().unwrap()).isSameAs(buf);
            assertThat(buf.slice(2, 4).slice(1, 1).unwrap()).isSameAs(buf);
            buf.release();
        }
    }

    @Test
    void indexesMoveTogetherWithTheWrappedBufferAndViewsStartFromThem() {
        CountingTracker tracker = new CountingTracker();
        ByteBuf buf = wrap(Unpooled.buffer(4, 64), tracker, Level.PARANOID);
        buf.writeLong(0x0102030405060708L);
        assertThat(buf.capacity()).as("grown by the wrapped buffer").isGreaterThanOrEqualTo(8);
        assertThat(buf.readShort()).isEqualTo((short) 0x0102);
        assertThat(buf.readerIndex()).isEqualTo(2);
        assertThat(buf.writerIndex()).isEqualTo(8);
        ByteBuf duplicate = buf.duplicate();
        assertThat(duplicate.readerIndex()).isEqualTo(2);
        assertThat(duplicate.readInt()).isEqualTo(0x03040506);
        ByteBuf readSlice = buf.readSlice(4);
        assertThat(readSlice.readInt()).isEqualTo(0x03040506);
        assertThat(buf.readerIndex()).isEqualTo(6);
        buf.discardReadBytes();
        assertThat(buf.readerIndex()).isZero();
        assertThat(buf.readShort()).isEqualTo((short) 0x0708);
        buf.release();
    }

    @Test
    void aReadOnlyViewOfATrackedBufferStaysReadOnlyUnderItsRecordingWrapper() {
        CountingTracker tracker = new CountingTracker();
        ByteBuf buf = wrap(Unpooled.buffer(16), tracker, Level.PARANOID).writeInt(9);
        ByteBuf readOnly = buf.asReadOnly();
        assertThat(readOnly.isReadOnly()).isTrue();
        assertThat(readOnly.asReadOnly()).isSameAs(readOnly);
        assertThatThrownBy(() -> readOnly.setByte(0, 1)).isInstanceOf(ReadOnlyBufferException.class);
        assertThatThrownBy(() -> readOnly.slice().setByte(0, 1)).isInstanceOf(ReadOnlyBufferException.class);
        assertThatThrownBy(() -> readOnly.duplicate().writeByte(1)).isInstanceOf(ReadOnlyBufferException.class);
        assertThat(readOnly.hasArray()).isFalse();
        assertThat(buf.getInt(0)).isEqualTo(9);
        buf.release();
    }

    @Test
    void aTrackedBufferAddedToACompositeIsReleasedByItAndClosedOnce() {
        CountingTracker tracker = new CountingTracker();
        ByteBuf part = wrap(Unpooled.directBuffer(8), tracker, Level.PARANOID).writeLong(11);
        CompositeByteBuf composite = new CompositeByteBuf(UnpooledByteBufAllocator.DEFAULT, false, 4);
        composite.addComponent(true, part.retainedSlice(4, 4)).addComponent(true, part);
        assertThat(composite.getInt(0)).isEqualTo(11);
        assertThat(composite.getLong(4)).isEqualTo(11);
        assertThat(composite.release()).isTrue();
        assertThat(part.refCnt()).isZero();
        assertThat(tracker.closes).hasValue(1);
    }

    @Test
    void withDetectionDisabledAllocatorsHandOutPlainBuffers() {
        Level previous = ResourceLeakDetector.level();
        ResourceLeakDetector.setLevel(Level.DISABLED);
        try {
            UnpooledByteBufAllocator alloc = watched(new UnpooledByteBufAllocator(false));
            ByteBuf buf = alloc.heapBuffer(8);
            CompositeByteBuf composite = alloc.compositeBuffer();
            assertThat(buf).isNotInstanceOf(WrappedByteBuf.class);
            assertThat(composite).isNotInstanceOf(LeakAwareCompositeByteBuf.class);
            buf.release();
            composite.release();
        } finally {
            ResourceLeakDetector.setLevel(previous);
        }
    }

    @Test
    void atParanoidEveryAllocationIsLeakAware() {
        PooledByteBufAllocator alloc = pooled();
        ByteBuf heap = alloc.heapBuffer(8);
        ByteBuf direct = alloc.directBuffer(8);
        assertThat(heap).isInstanceOf(AdvancedLeakAwareByteBuf.class);
        assertThat(direct).isInstanceOf(AdvancedLeakAwareByteBuf.class);
        assertThat(direct.isDirect()).isTrue();
        assertThat(heap.hasArray()).isTrue();
        heap.release();
        direct.release();
    }

    /** Counts what a wrapper does to its tracker. */
    private static final class CountingTracker implements ResourceLeakTracker<ByteBuf> {
        final AtomicInteger records = new AtomicInteger();
        final AtomicInteger closes = new AtomicInteger();
        final List<Object> hints = new CopyOnWriteArrayList<>();

        @Override
        public void record() {
            records.incrementAndGet();
        }

        @Override
        public void record(Object hint) {
            records.incrementAndGet();
            hints.add(hint);
        }

        @Override
        public boolean close(ByteBuf trackedObject) {
            return closes.incrementAndGet() == 1;
        }
    }
}
