package io.weir.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ReferenceCountedTest {
    private static final int THREADS = 4;
    private static ExecutorService executor;

    @BeforeAll
    static void startThreads() {
        executor = Executors.newFixedThreadPool(THREADS);
    }

    @AfterAll
    static void stopThreads() throws InterruptedException {
        executor.shutdownNow();
        assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    static final class Counted extends AbstractReferenceCounted {
        final AtomicInteger deallocations = new AtomicInteger();

        @Override
        protected void deallocate() {
            deallocations.incrementAndGet();
        }

        void setCount(int refCnt) {
            setRefCnt(refCnt);
        }
    }

    @Test
    void newObjectHoldsOneReferenceAndLastReleaseDeallocates() {
        Counted c = new Counted();
        assertThat(c.refCnt()).isEqualTo(1);
        assertThat(c.retain()).isSameAs(c);
        assertThat(c.retain(3).refCnt()).isEqualTo(5);
        assertThat(c.release(4)).isFalse();
        assertThat(c.deallocations).hasValue(0);
        assertThat(c.release()).isTrue();
        assertThat(c.refCnt()).isZero();
        assertThat(c.deallocations).hasValue(1);
    }

    @Test
    void doubleReleaseThrowsAndNeverDeallocatesTwice() {
        Counted c = new Counted();
        c.release();
        assertThatThrownBy(c::release)
                .isExactlyInstanceOf(IllegalReferenceCountException.class)
                .satisfies(e -> {
                    IllegalReferenceCountException irc = (IllegalReferenceCountException) e;
                    assertThat(irc.refCnt()).isZero();
                    assertThat(irc.delta()).isEqualTo(-1);
                });
        assertThatThrownBy(() -> c.release(2)).isExactlyInstanceOf(IllegalReferenceCountException.class);
        assertThat(c.deallocations).hasValue(1);
        assertThat(c.refCnt()).isZero();
    }

    @Test
    void retainAfterFreeThrowsAndDoesNotResurrect() {
        Counted c = new Counted();
        c.release();
        assertThatThrownBy(c::retain)
                .isExactlyInstanceOf(IllegalReferenceCountException.class)
                .hasMessageContaining("already freed");
        assertThatThrownBy(() -> c.retain(5)).isExactlyInstanceOf(IllegalReferenceCountException.class);
        assertThat(c.refCnt()).isZero();
        // Had a retain taken, this release would deallocate a second time.
        assertThatThrownBy(c::release).isExactlyInstanceOf(IllegalReferenceCountException.class);
        assertThat(c.deallocations).hasValue(1);
    }

    @Test
    void retainPastTheLargestCountThrowsAndKeepsTheCount() {
        Counted c = new Counted();
        c.setCount(ReferenceCountUpdater.MAX_REF_CNT);
        assertThatThrownBy(c::retain)
                .isExactlyInstanceOf(IllegalReferenceCountException.class)
                .hasMessageContaining("overflow");
        assertThat(c.refCnt()).isEqualTo(ReferenceCountUpdater.MAX_REF_CNT);

        Counted d = new Counted();
        assertThatThrownBy(() -> d.retain(Integer.MAX_VALUE)).isExactlyInstanceOf(IllegalReferenceCountException.class);
        assertThatThrownBy(() -> d.retain(ReferenceCountUpdater.MAX_REF_CNT))
                .isExactlyInstanceOf(IllegalReferenceCountException.class);
        assertThat(d.refCnt()).isEqualTo(1);
        d.retain(ReferenceCountUpdater.MAX_REF_CNT - 1);
        assertThat(d.refCnt()).isEqualTo(ReferenceCountUpdater.MAX_REF_CNT);
        assertThat(d.release(ReferenceCountUpdater.MAX_REF_CNT)).isTrue();
        assertThat(d.deallocations).hasValue(1);
    }

    @Test
    void releasingMoreThanHeldThrowsAndKeepsTheCount() {
        Counted c = new Counted();
        c.retain();
        assertThatThrownBy(() -> c.release(3))
                .isExactlyInstanceOf(IllegalReferenceCountException.class)
                .satisfies(e -> {
                    IllegalReferenceCountException irc = (IllegalReferenceCountException) e;
                    assertThat(irc.refCnt()).isEqualTo(2);
                    assertThat(irc.delta()).isEqualTo(-3);
                });
        assertThatThrownBy(() -> c.release(Integer.MAX_VALUE)).isExactlyInstanceOf(IllegalReferenceCountException.class);
        assertThat(c.refCnt()).isEqualTo(2);
        assertThat(c.release(2)).isTrue();
        assertThat(c.deallocations).hasValue(1);
    }

    @Test
    void nonPositiveAmountsAreRejected() {
        Counted c = new Counted();
        assertThatThrownBy(() -> c.retain(0)).isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
        assertThatThrownBy(() -> c.retain(-2)).isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining("-2");
        assertThatThrownBy(() -> c.release(0)).isExactlyInstanceOf(IllegalArgumentException.class);
        assertThat(c.refCnt()).isEqualTo(1);
        c.release();
    }

    static final class Probe extends AbstractReferenceCounted {
        volatile int count;
        int plainCount;

        @Override
        protected void deallocate() {
        }
    }

    @Test
    void updaterRefusesAFieldThatIsNotAVolatileInt() {
        AtomicIntegerFieldUpdater<Probe> updater = AtomicIntegerFieldUpdater.newUpdater(Probe.class, "count");
        assertThatThrownBy(() -> new ReferenceCountUpdater<>(Probe.class, "plainCount", updater) { })
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("plainCount");
        assertThatThrownBy(() -> new ReferenceCountUpdater<>(Probe.class, "missing", updater) { })
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("missing");
    }

    @Test
    void subclassUpdaterCountsItsOwnField() {
        ReferenceCountUpdater<Probe> updater = new ReferenceCountUpdater<>(Probe.class, "count",
                AtomicIntegerFieldUpdater.newUpdater(Probe.class, "count")) { };
        Probe p = new Probe();
        updater.resetRefCnt(p);
        assertThat(updater.retain(p, 2)).isSameAs(p);
        assertThat(updater.refCnt(p)).isEqualTo(3);
        assertThat(updater.isLive(p)).isTrue();
        assertThat(updater.release(p, 3)).isTrue();
        assertThat(updater.isLive(p)).isFalse();
        assertThat(p.count).isOdd();
        // The object's own AbstractReferenceCounted count was never touched.
        assertThat(p.refCnt()).isEqualTo(1);
        p.release();
    }

    @Test
    void concurrentRetainsAndReleasesDeallocateExactlyOnce() throws Exception {
        int rounds = 200;
        int opsPerThread = 2_000;
        for (int round = 0; round < rounds; round++) {
            Counted c = new Counted();
            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                futures.add(executor.submit(() -> {
                    start.await();
                    for (int i = 0; i < opsPerThread / 2; i++) {
                        c.retain();
                        c.release();
                        c.retain(2);
                        c.release(2);
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(30, TimeUnit.SECONDS);
            }
            assertThat(c.refCnt()).isEqualTo(1);
            assertThat(c.deallocations).hasValue(0);
            assertThat(c.release()).isTrue();
            assertThat(c.deallocations).hasValue(1);
        }
    }

    @Test
    void concurrentReleasesOfAllOwnersDeallocateExactlyOnce() throws Exception {
        for (int round = 0; round < 2_000; round++) {
            Counted c = new Counted();
            c.retain(THREADS - 1);
            CyclicBarrier start = new CyclicBarrier(THREADS);
            List<Future<Boolean>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                futures.add(executor.submit(() -> {
                    start.await();
                    return c.release();
                }));
            }
            int freed = 0;
            for (Future<Boolean> f : futures) {
                freed += f.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(freed).isEqualTo(1);
            assertThat(c.deallocations).hasValue(1);
            assertThat(c.refCnt()).isZero();
        }
    }

    @Test
    void racingFinalReleasesLetExactlyOneDeallocateAndTheOtherThrow() throws Exception {
        for (int round = 0; round < 2_000; round++) {
            Counted c = new Counted();
            CyclicBarrier start = new CyclicBarrier(2);
            List<Future<Boolean>> futures = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                futures.add(executor.submit(() -> {
                    start.await();
                    try {
                        return c.release();
                    } catch (IllegalReferenceCountException e) {
                        return false;
                    }
                }));
            }
            int freed = 0;
            for (Future<Boolean> f : futures) {
                freed += f.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(freed).isEqualTo(1);
            assertThat(c.deallocations).hasValue(1);
        }
    }

    @Test
    void retainRacingTheFinalReleaseNeverResurrects() throws Exception {
        for (int round = 0; round < 2_000; round++) {
            Counted c = new Counted();
            CyclicBarrier start = new CyclicBarrier(2);
            Future<Boolean> releaser = executor.submit(() -> {
                start.await();
                return c.release();
            });
            Future<Boolean> retainer = executor.submit(() -> {
                start.await();
                try {
                    c.retain();
                    return true;
                } catch (IllegalReferenceCountException e) {
                    return false;
                }
            });
            boolean freedFirst = releaser.get(30, TimeUnit.SECONDS);
            boolean retained = retainer.get(30, TimeUnit.SECONDS);
            if (retained) {
                // The retain came first: the releaser only dropped one of two references.
                assertThat(freedFirst).isFalse();
                assertThat(c.refCnt()).isEqualTo(1);
                assertThat(c.release()).isTrue();
            } else {
                assertThat(freedFirst).isTrue();
                assertThat(c.refCnt()).isZero();
            }
            assertThat(c.deallocations).hasValue(1);
        }
    }
}
