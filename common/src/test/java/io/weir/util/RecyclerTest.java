package io.weir.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weir.util.concurrent.FastThreadLocalThread;
import io.weir.util.platform.Queues;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class RecyclerTest {
    private static ExecutorService other;

    @BeforeAll
    static void startOtherThread() {
        other = Executors.newSingleThreadExecutor();
    }

    @AfterAll
    static void stopOtherThread() throws InterruptedException {
        other.shutdownNow();
        assertThat(other.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    static final class Pooled {
        final Recycler.Handle<Pooled> handle;

        Pooled(Recycler.Handle<Pooled> handle) {
            this.handle = handle;
        }

        void recycle() {
            handle.recycle(this);
        }
    }

    static final class PooledRecycler extends Recycler<Pooled> {
        int created;

        PooledRecycler(int maxCapacityPerThread, int ratio) {
            super(maxCapacityPerThread, ratio);
        }

        @Override
        protected Pooled newObject(Handle<Pooled> handle) {
            created++;
            return new Pooled(handle);
        }
    }

    private static <T> T onOtherThread(Callable<T> task) throws Exception {
        return other.submit(task).get(30, TimeUnit.SECONDS);
    }

    private static <T> T onFastThread(Callable<T> task) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = new FastThreadLocalThread(() -> {
            try {
                result.complete(task.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        t.start();
        T value = result.get(30, TimeUnit.SECONDS);
        t.join(30_000);
        assertThat(t.isAlive()).isFalse();
        return value;
    }

    @Test
    void objectRecycledOnTheSameThreadIsReused() {
        PooledRecycler recycler = new PooledRecycler(16, 1);
        Pooled first = recycler.get();
        first.recycle();
        assertThat(recycler.get()).isSameAs(first);
        assertThat(recycler.created).isEqualTo(1);
    }

    @Test
    void objectRecycledOnTheSameFastThreadLocalThreadIsReused() throws Exception {
        PooledRecycler recycler = new PooledRecycler(16, 1);
        boolean reused = onFastThread(() -> {
            Pooled first = recycler.get();
            first.recycle();
            return recycler.get() == first;
        });
        assertThat(reused).isTrue();
    }

    @Test
    void objectRecycledOnAnotherThreadIsHandedBackToItsOwner() throws Exception {
        PooledRecycler recycler = new PooledRecycler(16, 1);
        Pooled first = recycler.get();
        onOtherThread(() -> {
            first.recycle();
            return null;
        });
        assertThat(recycler.get()).isSameAs(first);
        assertThat(recycler.get()).isNotSameAs(first);
        assertThat(recycler.created).isEqualTo(2);
    }

    @Test
    void objectRecycledOnAnotherThreadIsNotGivenToThatThread() throws Exception {
        PooledRecycler recycler = new PooledRecycler(16, 1);
        Pooled first = recycler.get();
        Pooled seenThere = onOtherThread(() -> {
            first.recycle();
            return recycler.get();
        });
        assertThat(seenThere).isNotSameAs(first);
        assertThat(recycler.get()).isSameAs(first);
    }

    @Test
    void poolKeepsAtMostItsCapacity() {
        PooledRecycler recycler = new PooledRecycler(4, 1);
        List<Pooled> firstRound = getMany(recycler, 10);
        firstRound.forEach(Pooled::recycle);
        List<Pooled> secondRound = getMany(recycler, 10);
        assertThat(countSame(firstRound, secondRound)).isEqualTo(4);
    }

    @Test
    void onlyOneNewObjectPerRatioIsPooled() {
        PooledRecycler recycler = new PooledRecycler(100, 4);
        List<Pooled> firstRound = getMany(recycler, 8);
        firstRound.forEach(Pooled::recycle);
        List<Pooled> secondRound = getMany(recycler, 8);
        // The 1st and 5th new objects were pooled; the other six were left to the garbage collector.
        assertThat(countSame(firstRound, secondRound)).isEqualTo(2);
        assertThat(secondRound).contains(firstRound.get(0), firstRound.get(4));
    }

    @Test
    void zeroCapacityDisablesPooling() {
        PooledRecycler recycler = new PooledRecycler(0, 1);
        Pooled first = recycler.get();
        first.recycle();
        assertThat(recycler.get()).isNotSameAs(first);
        assertThatThrownBy(first::recycle).isExactlyInstanceOf(IllegalStateException.class);
    }

    @Test
    void doubleRecycleOnTheOwnerThreadIsDetected() {
        PooledRecycler recycler = new PooledRecycler(16, 1);
        Pooled first = recycler.get();
        first.recycle();
        assertThatThrownBy(first::recycle)
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessageContaining("recycled twice");
        // The pool holds the object once: two gets must not both return it.
        assertThat(recycler.get()).isSameAs(first);
        assertThat(recycler.get()).isNotSameAs(first);
    }

    @Test
    void doubleRecycleFromAnotherThreadIsDetected() throws Exception {
        PooledRecycler recycler = new PooledRecycler(16, 1);
        Pooled first = recycler.get();
        Throwable second = onOtherThread(() -> {
            first.recycle();
            try {
                first.recycle();
                return null;
            } catch (IllegalStateException e) {
                return e;
            }
        });
        assertThat(second).isExactlyInstanceOf(IllegalStateException.class);
        assertThatThrownBy(first::recycle).isExactlyInstanceOf(IllegalStateException.class);
        assertThat(recycler.get()).isSameAs(first);
        assertThat(recycler.get()).isNotSameAs(first);
    }

    @Test
    void unpooledObjectsStillDetectDoubleRecycle() {
        PooledRecycler recycler = new PooledRecycler(16, 1_000);
        recycler.get();
        Pooled unpooled = recycler.get();
        unpooled.recycle();
        assertThatThrownBy(unpooled::recycle).isExactlyInstanceOf(IllegalStateException.class);
    }

    @Test
    void recyclingAnotherRecyclersObjectThroughAHandleIsRefused() {
        PooledRecycler a = new PooledRecycler(16, 1);
        PooledRecycler b = new PooledRecycler(16, 1);
        Pooled fromA = a.get();
        Pooled fromB = b.get();
        assertThatThrownBy(() -> fromA.handle.recycle(fromB)).isExactlyInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> fromA.handle.recycle(null)).isExactlyInstanceOf(IllegalArgumentException.class);
        // Neither pool took anything in.
        assertThat(a.get()).isNotSameAs(fromB).isNotSameAs(fromA);
        assertThat(b.get()).isNotSameAs(fromA).isNotSameAs(fromB);
        fromA.recycle();
        fromB.recycle();
        assertThat(a.get()).isSameAs(fromA);
        assertThat(b.get()).isSameAs(fromB);
    }

    @Test
    void newObjectReturningNullIsReported() {
        Recycler<Object> broken = new Recycler<>(16, 1) {
            @Override
            protected Object newObject(Handle<Object> handle) {
                return null;
            }
        };
        assertThatThrownBy(broken::get).isExactlyInstanceOf(NullPointerException.class).hasMessageContaining("newObject");
    }

    @Test
    void badSettingsAreRejectedWithTheValue() {
        assertThatThrownBy(() -> new PooledRecycler(-1, 1)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> new PooledRecycler(4, 0)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ratio: 0");
    }

    @Test
    void allocatingOnOneThreadAndRecyclingOnAnotherStaysBounded() throws Exception {
        int capacity = 16;
        int objects = 20_000;
        PooledRecycler recycler = new PooledRecycler(capacity, 1);
        List<Pooled> allocated = getMany(recycler, objects);
        onOtherThread(() -> {
            allocated.forEach(Pooled::recycle);
            return null;
        });
        List<Pooled> reusedRound = getMany(recycler, objects);
        int reused = countSame(allocated, reusedRound);
        // What came back is bounded by the owner's stack and the hand-back queue, not by what was recycled.
        int bound = capacity + Math.max(capacity, Queues.MPSC_CHUNK_SIZE * 2);
        assertThat(reused).isPositive().isLessThanOrEqualTo(bound);
        assertThat(recycler.created).isEqualTo(2 * objects - reused);
    }

    @Test
    void objectRecycledToADeadThreadIsDroppedAndTheThreadCollected() throws Exception {
        PooledRecycler recycler = new PooledRecycler(16, 1);
        List<Object> handOver = new ArrayList<>();
        WeakReference<Thread> ownerRef = onFastThreadReturningOwner(recycler, handOver);
        Pooled orphan = (Pooled) handOver.get(0);
        // The owner is gone: recycling must neither fail nor keep its pool alive for it.
        orphan.recycle();
        assertThatThrownBy(orphan::recycle).isExactlyInstanceOf(IllegalStateException.class);
        assertThat(awaitCleared(ownerRef)).as("owner thread collected while its object is still held").isTrue();
        assertThat(recycler.get()).isNotSameAs(orphan);
        assertThat(orphan.handle).isNotNull();
    }

    private static WeakReference<Thread> onFastThreadReturningOwner(PooledRecycler recycler, List<Object> handOver)
            throws Exception {
        return onFastThread(() -> {
            Pooled p = recycler.get();
            // Fill the pool a little so the dead thread had something worth freeing.
            getMany(recycler, 8).forEach(Pooled::recycle);
            handOver.add(p);
            return new WeakReference<>(Thread.currentThread());
        });
    }

    @Test
    void virtualThreadsGetWorkingObjectsWithoutPooling() throws Exception {
        Method ofVirtual;
        try {
            ofVirtual = Thread.class.getMethod("ofVirtual");
        } catch (NoSuchMethodException e) {
            ofVirtual = null;
        }
        assumeTrue(ofVirtual != null, "virtual threads need JDK 21+");
        Object builder = ofVirtual.invoke(null);
        // Through the public interface: the builder's own class is not accessible.
        Method factoryMethod = Class.forName("java.lang.Thread$Builder").getMethod("factory");
        java.util.concurrent.ThreadFactory factory = (java.util.concurrent.ThreadFactory) factoryMethod.invoke(builder);
        PooledRecycler recycler = new PooledRecycler(16, 1);
        CompletableFuture<Boolean> reused = new CompletableFuture<>();
        factory.newThread(() -> {
            try {
                Pooled first = recycler.get();
                first.recycle();
                Pooled second = recycler.get();
                second.recycle();
                reused.complete(second == first);
            } catch (Throwable t) {
                reused.completeExceptionally(t);
            }
        }).start();
        assertThat(reused.get(30, TimeUnit.SECONDS)).isFalse();
    }

    private static boolean awaitCleared(WeakReference<?> ref) throws InterruptedException {
        for (int i = 0; i < 100 && ref.get() != null; i++) {
            ReferenceQueue<Object> queue = new ReferenceQueue<>();
            WeakReference<Object> sentinel = new WeakReference<>(new Object(), queue);
            System.gc();
            queue.remove(100);
            sentinel.clear();
        }
        return ref.get() == null;
    }

    private static List<Pooled> getMany(PooledRecycler recycler, int count) {
        List<Pooled> list = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            list.add(recycler.get());
        }
        return list;
    }

    private static int countSame(List<Pooled> a, List<Pooled> b) {
        Set<Pooled> set = Collections.newSetFromMap(new IdentityHashMap<>());
        set.addAll(a);
        int same = 0;
        for (Pooled p : b) {
            if (set.contains(p)) {
                same++;
            }
        }
        return same;
    }
}
