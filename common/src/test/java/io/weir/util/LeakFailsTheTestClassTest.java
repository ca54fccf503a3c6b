package io.weir.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.container;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The build's promise: a test class that leaks a tracked object fails, even when its tests pass. Runs two
 * small test classes through the JUnit test kit with the same extension auto-detection as the build.
 * (The ERROR log line "LEAK: ..." printed by this test is the deliberate leak, not a real one.)
 */
class LeakFailsTheTestClassTest {

    /** Run only through the test kit: Surefire skips nested classes. */
    static class LeakyTests {
        @Test
        void dropsATrackedObjectWithoutClosingIt() {
            ResourceLeakDetector<Object> detector = ResourceLeakDetector.builder(Object.class)
                    .level(ResourceLeakDetector.Level.PARANOID)
                    .build();
            assertThat(detector.track(new Object())).isNotNull();
        }
    }

    /** Run only through the test kit: Surefire skips nested classes. */
    static class TidyTests {
        @Test
        void closesEveryTracker() {
            ResourceLeakDetector<Object> detector = ResourceLeakDetector.builder(Object.class)
                    .level(ResourceLeakDetector.Level.PARANOID)
                    .build();
            Object resource = new Object();
            ResourceLeakTracker<Object> tracker = detector.track(resource);
            tracker.record();
            assertThat(tracker.close(resource)).isTrue();
        }
    }

    private static EngineExecutionResults run(Class<?> testClass) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
                .selectors(selectClass(testClass))
                .execute();
    }

    @Test
    void aLeakFailsTheClassThatCausedItAlthoughItsTestPassed() {
        EngineExecutionResults results = run(LeakyTests.class);
        results.testEvents().assertStatistics(stats -> stats.succeeded(1).failed(0));
        results.containerEvents().assertThatEvents().haveExactly(1, event(container(LeakyTests.class),
                finishedWithFailure(instanceOf(AssertionError.class),
                        message(m -> m.contains("leak(s) reported") && m.contains(LeakyTests.class.getName())))));
    }

    @Test
    void aClassThatReleasesEverythingPasses() {
        EngineExecutionResults results = run(TidyTests.class);
        results.testEvents().assertStatistics(stats -> stats.succeeded(1).failed(0));
        results.containerEvents().assertThatEvents().haveExactly(1,
                event(container(TidyTests.class), finishedSuccessfully()));
    }
}
