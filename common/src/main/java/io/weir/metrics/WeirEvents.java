package io.weir.metrics;

import javax.net.ssl.SSLSession;

/**
 * Weir's JDK Flight Recorder events, each recorded only while a recording has it enabled (all are, in the
 * {@code default} and {@code profile} settings): {@code io.weir.ConnectionOpened} and {@code io.weir.ConnectionClosed}
 * (where a {@code ChannelMetricsHandler} is in the pipeline), {@code io.weir.TlsHandshake},
 * {@code io.weir.Http2GoAway}, {@code io.weir.Http2Reset}, and {@code io.weir.EventLoopSlowTask} for a task that ran
 * {@link TaskTiming#slowTaskThresholdNanos()} or longer (while {@link TaskTiming} is on). All in the category
 * {@code Weir}. Without the {@code jdk.jfr} module (a trimmed runtime image) every method does nothing.
 *
 * <p>These methods are called by Weir's components on the event loop; the text fields are built only when the
 * event is enabled, so a method costs a check while nothing records.
 *
 * <p>Until Flight Recorder is initialized (a recording started by {@code -XX:StartFlightRecording}, {@code jcmd
 * JFR.start} or the {@code jdk.jfr} API), no event can be enabled, and the event classes are not even loaded: the
 * first load of an event class makes the JDK build Flight Recorder's metadata on the loading thread, which took
 * about 150 ms on an event loop in the middle of serving (the first GOAWAY a gRPC server received).
 */
public final class WeirEvents {
    /** The {@code direction} of a frame event: the frame was sent. */
    public static final String SENT = "sent";
    /** The {@code direction} of a frame event: the frame was received. */
    public static final String RECEIVED = "received";
    private static final boolean JFR = ModuleLayer.boot().findModule("jdk.jfr").isPresent();

    private WeirEvents() {
    }

    /** Whether an event could be enabled: the module is there and Flight Recorder is initialized (see above). */
    private static boolean live() {
        return JFR && JfrEvents.initialized();
    }

    /** A connection became active. */
    public static void connectionOpened(Object channelId, Object localAddress, Object remoteAddress) {
        if (live()) {
            JfrEvents.connectionOpened(channelId, localAddress, remoteAddress);
        }
    }

    /** A connection closed after {@code lifetimeNanos}, having carried the bytes given. */
    public static void connectionClosed(Object channelId, Object remoteAddress, ChannelMetrics.CloseReason reason,
                                        long lifetimeNanos, long bytesRead, long bytesWritten) {
        if (live()) {
            JfrEvents.connectionClosed(channelId, remoteAddress, reason, lifetimeNanos, bytesRead, bytesWritten);
        }
    }

    /**
     * Whether a recording wants {@code io.weir.TlsHandshake}: lets the caller skip reading the session (a native
     * call on some engines) when nobody does.
     */
    public static boolean isTlsHandshakeEnabled() {
        return live() && JfrEvents.isTlsHandshakeEnabled();
    }

    /**
     * A TLS handshake ended after {@code durationNanos}: completed ({@code failure} null; {@code session} the
     * negotiated one) or failed ({@code failure} the reason, {@code cause} the exception, {@code session} null).
     */
    public static void tlsHandshake(Object remoteAddress, TlsMetrics.Engine engine, SSLSession session,
                                    boolean resumed, TlsMetrics.FailureReason failure, Throwable cause,
                                    long durationNanos) {
        if (live()) {
            JfrEvents.tlsHandshake(remoteAddress, engine, session, resumed, failure, cause, durationNanos);
        }
    }

    /** An HTTP/2 GOAWAY was {@link #SENT} or {@link #RECEIVED}. */
    public static void http2GoAway(Object remoteAddress, String direction, int lastStreamId, long errorCode) {
        if (live()) {
            JfrEvents.http2GoAway(remoteAddress, direction, lastStreamId, errorCode);
        }
    }

    /** An HTTP/2 RST_STREAM was {@link #SENT} or {@link #RECEIVED}. */
    public static void http2Reset(Object remoteAddress, String direction, int streamId, long errorCode) {
        if (live()) {
            JfrEvents.http2Reset(remoteAddress, direction, streamId, errorCode);
        }
    }

    /** An event-loop task ran for {@code durationNanos}, at least the slow-task threshold. */
    public static void slowTask(Object task, long durationNanos) {
        if (live()) {
            JfrEvents.slowTask(task, durationNanos);
        }
    }
}
