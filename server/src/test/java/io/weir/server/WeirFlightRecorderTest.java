package io.weir.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.metrics.TaskTiming;
import io.weir.metrics.WeirMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Weir's Flight Recorder events, recorded around real traffic to the server, dumped to a file and read back with
 * {@code jdk.jfr.consumer}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WeirFlightRecorderTest {
    private static final List<String> EVENTS = List.of("io.weir.ConnectionOpened", "io.weir.ConnectionClosed",
            "io.weir.TlsHandshake", "io.weir.Http2GoAway", "io.weir.Http2Reset", "io.weir.EventLoopSlowTask");
    private static final long SLOW_TASK_NANOS = 2 * TaskTiming.slowTaskThresholdNanos();

    @Test
    void connectionsHandshakesHttp2FramesAndSlowTasksAreRecorded() throws Exception {
        Path file = Files.createTempFile("weir-events", ".jfr");
        try (Recording recording = new Recording()) {
            for (String event : EVENTS) {
                recording.enable(event).withThreshold(Duration.ZERO);
            }
            recording.start();
            // Closing the server shuts its loops down: every connection's close is recorded before stop().
            try (MetricsTraffic traffic = new MetricsTraffic(new WeirMetrics())) {
                assertThat(traffic.get("/plaintext").statusCode()).isEqualTo(200);
                assertThat(traffic.getTls("/json").statusCode()).isEqualTo(200);
                traffic.resetThenBreakHttp2();
                traffic.group.next().submit(WeirFlightRecorderTest::holdTheLoop).get(30, TimeUnit.SECONDS);
            }
            recording.stop();
            recording.dump(file);

            List<RecordedEvent> events = RecordingFile.readAllEvents(file);
            assertThat(events).extracting(e -> e.getEventType().getName()).containsAll(EVENTS);
            assertThat(events).filteredOn(named("io.weir.ConnectionClosed"))
                    .anyMatch(e -> e.getLong("bytesRead") > 0 && e.getLong("bytesWritten") > 0
                            && e.getDuration("lifetime").toNanos() > 0);
            assertThat(events).filteredOn(named("io.weir.TlsHandshake"))
                    .anyMatch(e -> e.getBoolean("success") && e.getString("protocol").startsWith("TLS")
                            && e.getString("cipherSuite") != null);
            assertThat(events).filteredOn(named("io.weir.Http2Reset"))
                    .anyMatch(e -> e.getString("direction").equals("received") && e.getString("error").equals("CANCEL")
                            && e.getInt("streamId") == 1);
            assertThat(events).filteredOn(named("io.weir.Http2GoAway"))
                    .anyMatch(e -> e.getString("direction").equals("sent")
                            && e.getString("error").equals("PROTOCOL_ERROR"));
            assertThat(events).filteredOn(named("io.weir.EventLoopSlowTask"))
                    .anyMatch(e -> e.getDuration("taskTime").toNanos() >= SLOW_TASK_NANOS);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static Predicate<RecordedEvent> named(String name) {
        return e -> e.getEventType().getName().equals(name);
    }

    /** A task that keeps its loop busy for twice the slow-task threshold (spinning: it stands for real work). */
    private static void holdTheLoop() {
        long end = System.nanoTime() + SLOW_TASK_NANOS;
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }
}
