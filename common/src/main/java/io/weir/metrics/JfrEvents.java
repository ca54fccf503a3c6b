package io.weir.metrics;

import javax.net.ssl.SSLSession;
import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The JFR event classes behind {@link WeirEvents}; loaded only where the {@code jdk.jfr} module is present. Each
 * method allocates its event (scalar-replaced by the JIT when the event is off) and fills it only when enabled.
 */
final class JfrEvents {
    private JfrEvents() {
    }

    /** {@link FlightRecorder#isInitialized()}: a static read, and loading {@code FlightRecorder} builds nothing. */
    static boolean initialized() {
        return FlightRecorder.isInitialized();
    }

    static void connectionOpened(Object channelId, Object localAddress, Object remoteAddress) {
        ConnectionOpened event = new ConnectionOpened();
        if (event.isEnabled()) {
            event.channelId = String.valueOf(channelId);
            event.localAddress = String.valueOf(localAddress);
            event.remoteAddress = String.valueOf(remoteAddress);
            event.commit();
        }
    }

    static void connectionClosed(Object channelId, Object remoteAddress, ChannelMetrics.CloseReason reason,
                                 long lifetimeNanos, long bytesRead, long bytesWritten) {
        ConnectionClosed event = new ConnectionClosed();
        if (event.isEnabled()) {
            event.channelId = String.valueOf(channelId);
            event.remoteAddress = String.valueOf(remoteAddress);
            event.reason = reason.label();
            event.lifetime = lifetimeNanos;
            event.bytesRead = bytesRead;
            event.bytesWritten = bytesWritten;
            event.commit();
        }
    }

    static boolean isTlsHandshakeEnabled() {
        return new TlsHandshake().isEnabled();
    }

    static void tlsHandshake(Object remoteAddress, TlsMetrics.Engine engine, SSLSession session, boolean resumed,
                             TlsMetrics.FailureReason failure, Throwable cause, long durationNanos) {
        TlsHandshake event = new TlsHandshake();
        if (event.isEnabled()) {
            event.remoteAddress = String.valueOf(remoteAddress);
            event.engine = engine.label();
            event.protocol = session == null ? null : session.getProtocol();
            event.cipherSuite = session == null ? null : session.getCipherSuite();
            event.resumed = resumed;
            event.success = failure == null;
            event.failure = failure == null ? null : failure.label();
            event.failureMessage = cause == null ? null : String.valueOf(cause);
            event.handshakeTime = durationNanos;
            event.commit();
        }
    }

    static void http2GoAway(Object remoteAddress, String direction, int lastStreamId, long errorCode) {
        Http2GoAway event = new Http2GoAway();
        if (event.isEnabled()) {
            event.commit(remoteAddress, direction, lastStreamId, errorCode);
        }
    }

    static void http2Reset(Object remoteAddress, String direction, int streamId, long errorCode) {
        Http2Reset event = new Http2Reset();
        if (event.isEnabled()) {
            event.commit(remoteAddress, direction, streamId, errorCode);
        }
    }

    static void slowTask(Object task, long durationNanos) {
        EventLoopSlowTask event = new EventLoopSlowTask();
        if (event.isEnabled()) {
            event.taskClass = task == null ? null : task.getClass().getName();
            event.taskTime = durationNanos;
            event.commit();
        }
    }

    @Name("io.weir.ConnectionOpened")
    @Label("Connection Opened")
    @Category("Weir")
    @Description("A connection became active")
    @StackTrace(false)
    static final class ConnectionOpened extends Event {
        @Label("Channel Id")
        String channelId;
        @Label("Local Address")
        String localAddress;
        @Label("Remote Address")
        String remoteAddress;
    }

    @Name("io.weir.ConnectionClosed")
    @Label("Connection Closed")
    @Category("Weir")
    @Description("A connection closed: why, how long it lived, what it carried")
    @StackTrace(false)
    static final class ConnectionClosed extends Event {
        @Label("Channel Id")
        String channelId;
        @Label("Remote Address")
        String remoteAddress;
        @Label("Reason")
        @Description("peer, local or error")
        String reason;
        @Label("Lifetime")
        @Timespan(Timespan.NANOSECONDS)
        long lifetime;
        @Label("Bytes Read")
        @DataAmount
        long bytesRead;
        @Label("Bytes Written")
        @DataAmount
        long bytesWritten;
    }

    @Name("io.weir.TlsHandshake")
    @Label("TLS Handshake")
    @Category("Weir")
    @Description("A TLS handshake completed or failed")
    @StackTrace(false)
    static final class TlsHandshake extends Event {
        @Label("Remote Address")
        String remoteAddress;
        @Label("Engine")
        String engine;
        @Label("Protocol")
        String protocol;
        @Label("Cipher Suite")
        String cipherSuite;
        @Label("Resumed")
        boolean resumed;
        @Label("Success")
        boolean success;
        @Label("Failure Reason")
        String failure;
        @Label("Failure Message")
        String failureMessage;
        @Label("Handshake Time")
        @Timespan(Timespan.NANOSECONDS)
        long handshakeTime;
    }

    /** The fields of an HTTP/2 frame event, sent or received. */
    abstract static class Http2FrameEvent extends Event {
        @Label("Remote Address")
        String remoteAddress;
        @Label("Direction")
        @Description("sent or received")
        String direction;
        @Label("Stream Id")
        @Description("The reset stream, or the last stream id a GOAWAY names")
        int streamId;
        @Label("Error")
        String error;
        @Label("Error Code")
        long errorCode;

        final void commit(Object remote, String frameDirection, int stream, long code) {
            remoteAddress = String.valueOf(remote);
            direction = frameDirection;
            streamId = stream;
            error = HttpMetrics.HTTP2_ERROR_LABELS.get(HttpMetrics.http2ErrorIndex(code));
            errorCode = code;
            commit();
        }
    }

    @Name("io.weir.Http2GoAway")
    @Label("HTTP/2 GOAWAY")
    @Category("Weir")
    @Description("An HTTP/2 GOAWAY frame was sent or received")
    @StackTrace(false)
    static final class Http2GoAway extends Http2FrameEvent {
    }

    @Name("io.weir.Http2Reset")
    @Label("HTTP/2 RST_STREAM")
    @Category("Weir")
    @Description("An HTTP/2 RST_STREAM frame was sent or received")
    @StackTrace(false)
    static final class Http2Reset extends Http2FrameEvent {
    }

    @Name("io.weir.EventLoopSlowTask")
    @Label("Event Loop Slow Task")
    @Category("Weir")
    @Description("An event-loop task ran at least the slow-task threshold, holding up every channel of its loop")
    @StackTrace(false)
    static final class EventLoopSlowTask extends Event {
        @Label("Task Class")
        String taskClass;
        @Label("Task Time")
        @Timespan(Timespan.NANOSECONDS)
        long taskTime;
    }
}
