package io.weir.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.testing.ChildJvm;
import java.util.List;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

/**
 * While Flight Recorder is not initialized, {@link WeirEvents} loads none of its event classes: loading the first
 * one makes the JDK build Flight Recorder's metadata on the calling thread, an event loop in the middle of serving.
 * Once a recording exists, the events are made again. Run in a child JVM that logs its class loading, since this
 * JVM may have started Flight Recorder already and loads each class once.
 */
class WeirEventsLoadingTest {
    private static final String MARK = "-- a recording starts --";

    /** The child: every event while nothing records, then one under a recording. */
    public static final class Child {
        public static void main(String[] args) {
            everyEvent();
            System.out.println(MARK);
            try (Recording recording = new Recording()) {
                recording.enable("io.weir.Http2GoAway");
                recording.start();
                WeirEvents.http2GoAway("peer", WeirEvents.RECEIVED, 0, 0);
                recording.stop();
            }
        }

        private static void everyEvent() {
            WeirEvents.connectionOpened("id", "local", "peer");
            WeirEvents.connectionClosed("id", "peer", ChannelMetrics.CloseReason.PEER, 1, 2, 3);
            if (WeirEvents.isTlsHandshakeEnabled()) {
                throw new AssertionError("TLS handshake events enabled with nothing recording");
            }
            WeirEvents.tlsHandshake("peer", TlsMetrics.Engine.JDK, null, false, TlsMetrics.FailureReason.OTHER,
                    new IllegalStateException("demo"), 1);
            WeirEvents.http2GoAway("peer", WeirEvents.SENT, 1, 2);
            WeirEvents.http2Reset("peer", WeirEvents.SENT, 1, 8);
            WeirEvents.slowTask(new Object(), 1);
        }
    }

    @Test
    void eventClassesStayUnloadedUntilFlightRecorderStarts() throws Exception {
        String output = ChildJvm.run(List.of(ChildJvm.location(WeirEvents.class), ChildJvm.location(Child.class)),
                Child.class, "-Xlog:class+load=info:stdout");
        int mark = output.indexOf(MARK);
        assertThat(mark).as(output).isPositive();
        String before = output.substring(0, mark);
        String after = output.substring(mark);
        assertThat(before).as("classes loaded before a recording started")
                .doesNotContain("io.weir.metrics.JfrEvents$")
                .doesNotContain("jdk.jfr.internal.MetadataRepository");
        assertThat(after).contains("io.weir.metrics.JfrEvents$Http2GoAway");
    }
}
