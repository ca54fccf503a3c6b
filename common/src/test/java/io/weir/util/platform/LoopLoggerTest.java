package io.weir.util.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.weir.testing.FailingLoggerFinder;
import java.lang.System.Logger.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A log call on an event loop's path must never throw: not when the back end throws an Error (as one that needs
 * a file descriptor does when there are none left), nor when the subject's toString() throws. The back end is
 * a {@link FailingLoggerFinder} logger (not installed as this JVM's finder: this module's child-JVM tests run
 * without the test-support classes).
 */
class LoopLoggerTest {
    private static final LoopLogger LOGGER = new LoopLogger(LoopLoggerTest.class.getName(),
            new FailingLoggerFinder().getLogger(LoopLoggerTest.class.getName(), LoopLoggerTest.class.getModule()));

    @AfterEach
    void stopFailing() {
        FailingLoggerFinder.setFailing(false);
    }

    @Test
    void aLogBackEndThatThrowsErrorsIsContainedAndCounted() {
        FailingLoggerFinder.setFailing(true);
        long failuresBefore = FailingLoggerFinder.failuresThrown();
        long lostBefore = LoopLogger.failedRecords();
        assertThatCode(() -> {
            LOGGER.log(Level.ERROR, "a record");
            LOGGER.log(Level.WARNING, "a record with a cause", new IllegalStateException("cause"));
            LOGGER.log(Level.WARNING, "a record about ", "a subject", " and more", null);
            LOGGER.log(Level.WARNING, () -> "a supplied record");
            assertThat(LOGGER.isLoggable(Level.ERROR)).isFalse();
        }).doesNotThrowAnyException();
        assertThat(FailingLoggerFinder.failuresThrown() - failuresBefore).isEqualTo(5);
        assertThat(LoopLogger.failedRecords() - lostBefore).isEqualTo(5);
    }

    @Test
    void aSubjectWhoseToStringThrowsIsNamedByItsType() {
        Object hostile = new Object() {
            @Override
            public String toString() {
                throw new OutOfMemoryError("toString() that throws");
            }
        };
        long lostBefore = LoopLogger.failedRecords();
        assertThatCode(() -> LOGGER.log(Level.ERROR, "about ", hostile, null))
                .doesNotThrowAnyException();
        // The record itself went through: only the subject's text was replaced.
        assertThat(LoopLogger.failedRecords()).isEqualTo(lostBefore);
    }

    @Test
    void aDisabledLevelBuildsNoText() {
        Object counted = new Object() {
            int calls;

            @Override
            public String toString() {
                calls++;
                return "calls: " + calls;
            }
        };
        LOGGER.log(Level.TRACE, "never built: ", counted, null);
        assertThat(counted.toString()).isEqualTo("calls: 1");
    }
}
