package io.weir.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.util.ResourceLeakDetector.Level;
import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class ResourceLeakDetectorTest {
    private static final int MAX_GC_ROUNDS = 100;
    private static final long GC_WAIT_MILLIS = 100;

    /** Stands in for a buffer; never released in the leak tests. */
    static final class Resource {
        final byte[] payload = new byte[64];
    }

    private final List<String> reports = new CopyOnWriteArrayList<>();

    private ResourceLeakDetector.Builder detectorAt(Level level) {
        return ResourceLeakDetector.builder(Resource.class).level(level).reporter((type, report) -> {
            assertThat(type).isEqualTo(Resource.class.getName());
            reports.add(report);
        });
    }

    /** Collects garbage until every tracker of {@code detector} was closed or reported (bounded). */
    private static void awaitNoOpenTrackers(ResourceLeakDetector<?> detector) throws InterruptedException {
        for (int i = 0; i < MAX_GC_ROUNDS && detector.openTrackerCount() > 0; i++) {
            ReferenceQueue<Object> queue = new ReferenceQueue<>();
            PhantomReference<Object> sentinel = new PhantomReference<>(new Object(), queue);
            System.gc();
            // Blocks until the reference handler has enqueued this cycle's references (or the wait runs out).
            queue.remove(GC_WAIT_MILLIS);
            sentinel.clear();
            ResourceLeakDetector.reportCollectedLeaks();
        }
        assertThat(detector.openTrackerCount()).as("trackers neither closed nor reported").isZero();
    }

    private static void leak(ResourceLeakDetector<Resource> detector, Object hint, int accesses) {
        Resource r = new Resource();
        ResourceLeakTracker<Resource> tracker = detector.track(r);
        assertThat(tracker).isNotNull();
        for (int i = 0; i < accesses; i++) {
            tracker.record(hint instanceof String s ? s + i : hint);
        }
    }

    @Test
    void droppedObjectIsReportedWithItsCreationAccessesAndHint() throws Exception {
        ResourceLeakDetector<Resource> detector = detectorAt(Level.PARANOID).build();
        ResourceLeakHint hint = () -> "decoder-in-pipeline";
        leak(detector, hint, 1);
        awaitNoOpenTrackers(detector);

        assertThat(reports).hasSize(1);
        String report = reports.get(0);
        assertThat(report)
                .contains("LEAK", Resource.class.getName(), "Recent access records", "#1:",
                        "Hint: decoder-in-pipeline", "Created at:")
                .contains("ResourceLeakDetectorTest.leak(")
                // The detector's own frames are cut from every record.
                .doesNotContain("ResourceLeakDetector$Tracker.", "ResourceLeakDetector.track(");
    }

    @Test
    void leakIsReportedEvenAfterItsDetectorWasDropped() throws Exception {
        // A detector made per component and dropped by it while its objects live on must still report them.
        leak(detectorAt(Level.PARANOID).build(), null, 1);
        for (int i = 0; i < MAX_GC_ROUNDS && reports.isEmpty(); i++) {
            ReferenceQueue<Object> queue = new ReferenceQueue<>();
            PhantomReference<Object> sentinel = new PhantomReference<>(new Object(), queue);
            System.gc();
            queue.remove(GC_WAIT_MILLIS);
            sentinel.clear();
            ResourceLeakDetector.reportCollectedLeaks();
        }
        assertThat(reports).hasSize(1);
        assertThat(reports.get(0)).contains("LEAK", Resource.class.getName());
    }

    @Test
    void releasedObjectIsNotReported() throws Exception {
        ResourceLeakDetector<Resource> detector = detectorAt(Level.PARANOID).build();
        trackAndClose(detector);
        assertThat(detector.openTrackerCount()).isZero();
        // A real leak in the same collection proves the collector ran; only it may be reported.
        leak(detector, "the-real-leak", 1);
        awaitNoOpenTrackers(detector);

        assertThat(reports).hasSize(1);
        assertThat(reports.get(0)).contains("the-real-leak");
    }

    private static void trackAndClose(ResourceLeakDetector<Resource> detector) {
        Resource r = new Resource();
        ResourceLeakTracker<Resource> tracker = detector.track(r);
        tracker.record("closed-properly");
        assertThat(tracker.close(r)).isTrue();
        assertThat(tracker.close(r)).as("second close").isFalse();
    }

    @Test
    void closingWithAnotherObjectIsRefused() {
        ResourceLeakDetector<Resource> detector = detectorAt(Level.PARANOID).build();
        Resource r = new Resource();
        ResourceLeakTracker<Resource> tracker = detector.track(r);
        assertThatThrownBy(() -> tracker.close(new Resource())).isExactlyInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> tracker.close(null)).isExactlyInstanceOf(NullPointerException.class);
        assertThat(tracker.close(r)).isTrue();
    }

    @Test
    void simpleLevelReportNamesTheTypeAndHowToGetRecords() throws Exception {
        ResourceLeakDetector<Resource> detector = detectorAt(Level.SIMPLE).samplingInterval(1).build();
        leak(detector, "ignored-at-simple", 3);
        awaitNoOpenTrackers(detector);

        assertThat(reports).hasSize(1);
        assertThat(reports.get(0))
                .contains(Resource.class.getName(), "-Dio.weir.leakDetection.level=ADVANCED")
                .doesNotContain("ignored-at-simple", "Created at:");
    }

    @Test
    void recordsAreBoundedKeepingTheNewestAndTheCreation() throws Exception {
        ResourceLeakDetector<Resource> detector = detectorAt(Level.PARANOID).targetRecords(3).build();
        leak(detector, "access-", 100);
        awaitNoOpenTrackers(detector);

        assertThat(reports).hasSize(1);
        String report = reports.get(0);
        assertThat(report).contains("#1:", "#2:", "#3:", "Hint: access-99", "Created at:",
                "97 older access record(s) were dropped", "-Dio.weir.leakDetection.targetRecords");
        assertThat(report).doesNotContain("#4:");
        assertThat(report.split("Hint: access-", -1)).hasSize(4);
        // Newest first: the last access is record #1.
        assertThat(report.indexOf("Hint: access-99")).isLessThan(report.indexOf("#2:"));
    }

    @Test
    void identicalLeaksAreReportedOnce() throws Exception {
        ResourceLeakDetector<Resource> detector = detectorAt(Level.PARANOID).build();
        for (int i = 0; i < 5; i++) {
            leak(detector, "same", 0);
        }
        awaitNoOpenTrackers(detector);

        assertThat(reports).hasSize(1);
        assertThat(reports.get(0)).contains("It was never accessed after creation");
    }

    @Test
    void distinctLeaksAreEachReported() throws Exception {
        ResourceLeakDetector<Resource> detector = detectorAt(Level.PARANOID).build();
        leak(detector, "first-", 1);
        leak(detector, "second-", 1);
        awaitNoOpenTrackers(detector);

        assertThat(reports).hasSize(2);
    }

    @Test
    void samplingTracksAboutOneObjectPerInterval() {
        ResourceLeakDetector<Resource> detector = detectorAt(Level.SIMPLE).samplingInterval(4).build();
        int attempts = 4_000;
        int tracked = 0;
        for (int i = 0; i < attempts; i++) {
            Resource r = new Resource();
            ResourceLeakTracker<Resource> tracker = detector.track(r);
            if (tracker != null) {
                tracked++;
                assertThat(tracker.close(r)).isTrue();
            }
        }
        // Binomial(4000, 1/4): mean 1000, standard deviation about 27; these bounds are 10 deviations away.
        assertThat(tracked).isBetween(730, 1270);
    }

    @Test
    void paranoidTracksEveryObjectWhateverTheInterval() {
        ResourceLeakDetector<Resource> detector = detectorAt(Level.PARANOID).samplingInterval(1 << 20).build();
        for (int i = 0; i < 100; i++) {
            Resource r = new Resource();
            ResourceLeakTracker<Resource> tracker = detector.track(r);
            assertThat(tracker).isNotNull();
            tracker.close(r);
        }
    }

    @Test
    void disabledTracksNothing() {
        ResourceLeakDetector<Resource> detector = detectorAt(Level.DISABLED).samplingInterval(1).build();
        assertThat(detector.track(new Resource())).isNull();
    }

    @Test
    void detectorsWithoutTheirOwnLevelFollowTheGlobalLevel() {
        ResourceLeakDetector<Resource> detector = detectorAt(null).samplingInterval(1).build();
        Level before = ResourceLeakDetector.level();
        try {
            ResourceLeakDetector.setLevel(Level.DISABLED);
            assertThat(detector.track(new Resource())).isNull();
            ResourceLeakDetector.setLevel(Level.PARANOID);
            Resource r = new Resource();
            ResourceLeakTracker<Resource> tracker = detector.track(r);
            assertThat(tracker).isNotNull();
            assertThat(tracker.close(r)).isTrue();
        } finally {
            ResourceLeakDetector.setLevel(before);
        }
        assertThatThrownBy(() -> ResourceLeakDetector.setLevel(null)).isExactlyInstanceOf(NullPointerException.class);
    }

    @Test
    void testsRunAtTheParanoidLevelFromTheSystemProperty() {
        assertThat(ResourceLeakDetector.level()).isEqualTo(Level.PARANOID);
    }

    @Test
    void levelNamesParseInAnyCaseAndUnknownNamesFallBack() {
        assertThat(Level.parse(" advanced ", Level.SIMPLE)).isEqualTo(Level.ADVANCED);
        assertThat(Level.parse("Paranoid", Level.SIMPLE)).isEqualTo(Level.PARANOID);
        assertThat(Level.parse("loud", Level.SIMPLE)).isEqualTo(Level.SIMPLE);
        assertThat(Level.parse(null, Level.DISABLED)).isEqualTo(Level.DISABLED);
    }

    @Test
    void ownReporterKeepsLeaksFromTheGlobalListeners() throws Exception {
        List<String> heard = new ArrayList<>();
        Consumer<String> listener = heard::add;
        ResourceLeakDetector.addLeakListener(listener);
        try {
            ResourceLeakDetector<Resource> detector = detectorAt(Level.PARANOID).build();
            leak(detector, "private-", 1);
            awaitNoOpenTrackers(detector);
            assertThat(reports).hasSize(1);
            assertThat(heard).isEmpty();
        } finally {
            assertThat(ResourceLeakDetector.removeLeakListener(listener)).isTrue();
        }
        assertThat(ResourceLeakDetector.removeLeakListener(listener)).isFalse();
    }

    @Test
    void badOptionsAreRejectedWithTheValue() {
        assertThatThrownBy(() -> ResourceLeakDetector.builder(Resource.class).samplingInterval(0))
                .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
        assertThatThrownBy(() -> ResourceLeakDetector.builder(Resource.class).targetRecords(-3))
                .isExactlyInstanceOf(IllegalArgumentException.class).hasMessageContaining("-3");
        assertThatThrownBy(() -> ResourceLeakDetector.newDetector(null)).isExactlyInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ResourceLeakDetector.newDetector(Resource.class).track(null))
                .isExactlyInstanceOf(NullPointerException.class);
    }

    @Test
    void concurrentRecordsStayBounded() throws Exception {
        ResourceLeakDetector<Resource> detector = detectorAt(Level.PARANOID).targetRecords(4).build();
        ResourceLeakTracker<Resource> tracker = trackUnreachable(detector);
        Thread[] threads = new Thread[4];
        for (int t = 0; t < threads.length; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 500; i++) {
                    tracker.record("t" + id);
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join(30_000);
            assertThat(t.isAlive()).isFalse();
        }
        tracker.record("t-last");
        awaitNoOpenTrackers(detector);
        assertThat(reports).hasSize(1);
        assertThat(reports.get(0).split("Hint: t", -1)).hasSize(5);
    }

    private static ResourceLeakTracker<Resource> trackUnreachable(ResourceLeakDetector<Resource> detector) {
        return detector.track(new Resource());
    }
}
