package io.weir.handler.codec.http2.internal;

import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.metrics.HttpMetrics;
import io.weir.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Every timer of an {@link Http2Connection}, in one place: the SETTINGS acknowledgement, stalled streams, write
 * progress and the graceful close's wait each have a timer armed when that wait begins; the peer's silences (the
 * connection idle timeout, the stream read timeout and the minimum request body rate) share one timer per
 * connection. {@link #cancelAll} stops them all when the connection ends. Only used from the connection's event
 * loop.
 *
 * <p>For the silences, reads only stamp a field (the codec's {@code readNanos}, a stream's {@code lastReadNanos}); nothing is
 * rescheduled per frame. The task, when it runs, acts on what is due, works out the earliest deadline left, and
 * re-arms itself for it, or for the shortest enabled timeout if that is sooner: a deadline that a state change
 * starts later can never be earlier than the next run.
 *
 * <p>What is the server's time, not the peer's, never counts: a stream whose receive window (or the connection's)
 * is used up because the application has not consumed the data, a connection whose reading is paused, and, for the
 * idle clock only, output still queued in the channel. Each of those restarts the clock it holds when the task
 * finds it, which gives the peer a little more time, never less.
 */
final class Http2ConnectionTimeouts {

    private static final long NO_DEADLINE = Long.MAX_VALUE;

    private final Http2Connection c;
    private final long idleTimeoutNanos;
    private final long streamReadTimeoutNanos;
    /** Octets a stream must receive per rate window; 0 when the body rate is not enforced. */
    private final long minBytesPerRateWindow;
    private final long rateWindowNanos;
    private final long rateGraceNanos;
    private final long tickBoundNanos;
    private final Runnable tick = this::onTick;

    private final long settingsAckTimeoutMillis;
    private final long streamStallTimeoutMillis;
    private final long writeProgressTimeoutMillis;
    private final long gracefulShutdownTimeoutMillis;
    private final Runnable settingsAckTask = this::settingsAckTimedOut;
    private final Runnable stallTask = this::checkStalledStreams;
    private final Runnable progressTask = this::checkWriteProgress;
    private final Runnable gracefulTask = this::gracefulCloseTimedOut;

    private ScheduledFuture<?> timer;
    private ScheduledFuture<?> settingsAck;
    private ScheduledFuture<?> stallCheck;
    private ScheduledFuture<?> progressCheck;
    private ScheduledFuture<?> gracefulClose;
    /** The write-progress clock: when output last moved, and what had been sent and was backlogged by then. */
    private long progressNanos;
    private long progressSentBytes;
    private long progressBacklogBytes;
    /** Since when the connection has had no open stream (the ticker's time), when it has none. */
    private long idleSinceNanos;
    private boolean stopped;

    Http2ConnectionTimeouts(Http2Connection connection, Http2ConnectionConfig config) {
        this.c = connection;
        this.idleTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(config.idleTimeoutMillis());
        this.streamReadTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(config.streamReadTimeoutMillis());
        // The builder's window and grace period (HttpServerPolicy's, or HTTP/1.1's defaults).
        this.rateWindowNanos = config.bodyRateWindowNanos();
        this.rateGraceNanos = config.bodyRateGracePeriodNanos();
        // Doubles: the rate times the window in nanoseconds overflows a long; a positive rate asks at least a byte.
        long minBodyRateBytesPerSecond = config.minBodyRateBytesPerSecond();
        this.minBytesPerRateWindow = minBodyRateBytesPerSecond == 0 ? 0
                : Math.max(1, (long) ((double) minBodyRateBytesPerSecond * rateWindowNanos / 1e9));
        this.settingsAckTimeoutMillis = config.settingsAckTimeoutMillis();
        this.streamStallTimeoutMillis = config.streamStallTimeoutMillis();
        this.writeProgressTimeoutMillis = config.writeProgressTimeoutMillis();
        this.gracefulShutdownTimeoutMillis = config.gracefulShutdownTimeoutMillis();
        long bound = NO_DEADLINE;
        if (idleTimeoutNanos > 0) {
            bound = idleTimeoutNanos;
        }
        if (streamReadTimeoutNanos > 0) {
            bound = Math.min(bound, streamReadTimeoutNanos);
        }
        if (minBytesPerRateWindow > 0) {
            bound = Math.min(bound, rateWindowNanos);
        }
        this.tickBoundNanos = bound;
    }

    /** Starts the clocks when the connection starts; the peer's preface and SETTINGS are covered by the idle one. */
    void start(long now) {
        idleSinceNanos = now;
        if (tickBoundNanos != NO_DEADLINE) {
            arm(now + tickBoundNanos, now);
        }
    }

    /** The last stream closed: the idle clock starts now. */
    void connectionBecameIdle(long now) {
        idleSinceNanos = now;
    }

    /** Stops the clocks on the peer's silences for good (the connection is closing or closed). */
    void stop() {
        stopped = true;
        cancel(timer);
        timer = null;
    }

    /** Stops every timer for good: the connection ended. */
    void cancelAll() {
        stop();
        cancel(settingsAck);
        cancel(stallCheck);
        cancel(progressCheck);
        cancel(gracefulClose);
        settingsAck = stallCheck = progressCheck = gracefulClose = null;
    }

    private static void cancel(ScheduledFuture<?> f) {
        if (f != null) {
            f.cancel(false);
        }
    }

    private ScheduledFuture<?> schedule(Runnable task, long delayMillis) {
        return c.ctx.executor().schedule(task, delayMillis, TimeUnit.MILLISECONDS);
    }

    // ---------------------------------------------------------------- SETTINGS acknowledgement (RFC 9113 §6.5.3)

    /** A SETTINGS frame went out: the peer has the acknowledgement timeout to answer (if no clock runs yet). */
    void armSettingsAck() {
        if (settingsAck == null) {
            settingsAck = schedule(settingsAckTask, settingsAckTimeoutMillis);
        }
    }

    /** Every SETTINGS sent is acknowledged. */
    void cancelSettingsAck() {
        cancel(settingsAck);
        settingsAck = null;
    }

    private void settingsAckTimedOut() {
        settingsAck = null;
        c.settingsAckTimedOut();
    }

    // ---------------------------------------------------------------- stalled streams

    /** DATA is queued: checks now and then for streams whose queue makes no progress (if no check is pending). */
    void armStallCheck() {
        if (stallCheck == null) {
            stallCheck = schedule(stallTask, Math.max(1, streamStallTimeoutMillis / 4));
        }
    }

    private void checkStalledStreams() {
        stallCheck = null;
        if (c.isFailed()) {
            return;
        }
        c.resetStalledStreams(c.nanoTime(), TimeUnit.MILLISECONDS.toNanos(streamStallTimeoutMillis));
        if (c.flow.queuedBytes > 0) {
            armStallCheck();
        }
    }

    // ---------------------------------------------------------------- write progress

    /** Output is owed: starts the write-progress clock if it is not running (and the timeout is on). */
    void armWriteProgress() {
        if (progressCheck != null || writeProgressTimeoutMillis == 0) {
            return;
        }
        progressNanos = c.nanoTime();
        progressSentBytes = c.flow.sentBytes;
        progressBacklogBytes = c.backlogBytes();
        progressCheck = schedule(progressTask, Math.max(1, writeProgressTimeoutMillis / 4));
    }

    /**
     * Closes a connection that owes output and sent none of it for the write-progress timeout: DATA waiting for a
     * window that never opens (however many streams wait on it), or a socket backlog the peer never reads.
     */
    private void checkWriteProgress() {
        progressCheck = null;
        if (c.isFailed()) {
            return;
        }
        long backlog = c.backlogBytes();
        long queued = c.flow.queuedBytes;
        if (queued == 0 && backlog == 0) {
            return; // nothing owed: the clock stops until output is owed again
        }
        long now = c.nanoTime();
        long sent = c.flow.sentBytes;
        if (sent != progressSentBytes || backlog < progressBacklogBytes) {
            progressNanos = now;
        }
        progressSentBytes = sent;
        progressBacklogBytes = backlog;
        if (now - progressNanos >= TimeUnit.MILLISECONDS.toNanos(writeProgressTimeoutMillis)) {
            c.connectionFailed(Http2Exception.connectionError(Http2Error.INTERNAL_ERROR, "no output progress for "
                    + writeProgressTimeoutMillis + " ms with " + (queued + backlog) + " octets owed to the peer"));
            return;
        }
        progressCheck = schedule(progressTask, Math.max(1, writeProgressTimeoutMillis / 4));
    }

    // ---------------------------------------------------------------- graceful close

    /** A graceful close began: it waits for the open streams at most the graceful shutdown timeout. */
    void armGracefulClose() {
        gracefulClose = schedule(gracefulTask, gracefulShutdownTimeoutMillis);
    }

    /** The graceful close finished before its timeout. */
    void cancelGracefulClose() {
        cancel(gracefulClose);
        gracefulClose = null;
    }

    private void gracefulCloseTimedOut() {
        gracefulClose = null;
        c.finishClose();
    }

    // ---------------------------------------------------------------- the peer's silences

    private void arm(long deadline, long now) {
        timer = c.ctx.executor().schedule(tick, Math.max(1, deadline - now), TimeUnit.NANOSECONDS);
    }

    private void onTick() {
        timer = null;
        if (stopped || c.isClosing()) {
            return;
        }
        long now = c.nanoTime();
        // Paused reading keeps the peer's frames in the socket: not the peer's silence.
        boolean readingPaused = !c.ctx.channel().config().isAutoRead();
        long next = now + tickBoundNanos;
        if ((streamReadTimeoutNanos > 0 || minBytesPerRateWindow > 0) && c.activeStreams() > 0) {
            // Queued output does not hold these clocks: a peer that does not read can still send, and must not
            // shield its silent streams by leaving another stream's response unread.
            next = Math.min(next, checkStreams(now, readingPaused));
        }
        if (c.isClosing()) {
            return;
        }
        if (idleTimeoutNanos > 0 && c.activeStreams() == 0) {
            if (readingPaused || hasQueuedOutput()) {
                // The last answer is still on its way to the peer: the idle time starts once it has left.
                idleSinceNanos = now;
            }
            // Counted from the last stream's end, not from the last frame: PING, SETTINGS or WINDOW_UPDATE frames
            // open no request, so a peer sending them now and then does not hold the connection (nor does a
            // header block trickled in CONTINUATION frames).
            long idleDeadline = idleSinceNanos + idleTimeoutNanos;
            if (idleDeadline - now <= 0) {
                // No stream for the whole timeout: GOAWAY(NO_ERROR) and close (RFC 9113 §6.8, §9.1).
                c.events.timedOut(HttpMetrics.Timeout.IDLE);
                c.startGracefulClose(null);
                return;
            }
            next = Math.min(next, idleDeadline);
        }
        arm(next, now);
    }

    /** Whether the channel's outbound buffer holds bytes (flushed or not) that have not reached the socket. */
    private boolean hasQueuedOutput() {
        // Nothing queued: the bytes before unwritability are the high-water mark plus one.
        return c.ctx.channel().bytesBeforeUnwritable() <= c.ctx.channel().config().getWriteBufferWaterMark().high();
    }

    /** {@link #checkBodyRate}'s answer for a stream whose body came in below the minimum rate. */
    private static final long TOO_SLOW = Long.MIN_VALUE;

    /**
     * The minimum body rate of one stream the peer is still sending on: its first window starts after the grace
     * period from the stream's first check; each window that ends with fewer than the minimum octets makes the
     * stream {@link #TOO_SLOW}. A window in which the peer could not send is started over. Returns when the
     * current window ends.
     */
    private long checkBodyRate(Http2StreamRecord stream, long now, boolean blocked) {
        if (stream.rateWindowStartNanos == 0) {
            // First seen now: the grace period runs, then the first window.
            stream.rateWindowStartNanos = Math.max(1, now + rateGraceNanos);
            stream.rateWindowStartBytes = stream.receivedDataBytes;
            return stream.rateWindowStartNanos + rateWindowNanos;
        }
        if (now - stream.rateWindowStartNanos < 0) {
            // Still in the grace period: what arrives there does not count either way.
            stream.rateWindowStartBytes = stream.receivedDataBytes;
            return stream.rateWindowStartNanos + rateWindowNanos;
        }
        if (blocked) {
            stream.rateWindowStartNanos = now;
            stream.rateWindowStartBytes = stream.receivedDataBytes;
            return now + rateWindowNanos;
        }
        long end = stream.rateWindowStartNanos + rateWindowNanos;
        if (end - now > 0) {
            return end;
        }
        if (stream.receivedDataBytes - stream.rateWindowStartBytes < minBytesPerRateWindow) {
            return TOO_SLOW;
        }
        stream.rateWindowStartNanos = now;
        stream.rateWindowStartBytes = stream.receivedDataBytes;
        return now + rateWindowNanos;
    }

    /** Resets the streams the peer has left silent too long; returns the earliest deadline of the others. */
    private long checkStreams(long now, boolean readingPaused) {
        long next = NO_DEADLINE;
        boolean connectionBlocked = c.connectionWindow.window() <= 0;
        for (int id : c.streams.keys()) {
            Http2StreamRecord stream = c.streams.get(id);
            // Only a stream still waiting for the peer (it has not sent END_STREAM). A half-closed (remote)
            // stream is owed an answer by the server: the peer's silence there is a long poll, not an attack.
            if (stream == null || !stream.state.remoteMaySendData() || !c.isRemoteStream(id)) {
                continue;
            }
            if (stream.tunnel) {
                // RFC 8441: an established tunnel is silent as long as its protocol likes (a quiet WebSocket);
                // that protocol's own rule (WebSocket idle pings, closed with 1001 when unanswered) bounds it.
                continue;
            }
            boolean blocked = readingPaused || connectionBlocked || stream.localWindow.window() <= 0;
            if (blocked) {
                // The peer cannot send: our flow control or paused reading holds it; its clock starts over.
                stream.lastReadNanos = now;
            }
            if (minBytesPerRateWindow > 0) {
                long rateDeadline = checkBodyRate(stream, now, blocked);
                if (rateDeadline == TOO_SLOW) {
                    // As HTTP/1.1's 408 for a body below the minimum rate: the stream ends (RST_STREAM CANCEL,
                    // counted with the other resets).
                    c.events.timedOut(HttpMetrics.Timeout.BODY_RATE);
                    c.resetStream(id, stream, Http2Error.CANCEL.code());
                    if (c.isClosing()) {
                        return NO_DEADLINE;
                    }
                    continue;
                }
                next = Math.min(next, rateDeadline);
            }
            if (streamReadTimeoutNanos <= 0) {
                continue;
            }
            long deadline = stream.lastReadNanos + streamReadTimeoutNanos;
            if (deadline - now <= 0) {
                // RFC 9113 §5.4.2: the stream ends with RST_STREAM(CANCEL), counted with the other resets so
                // that a peer cannot farm them.
                c.events.timedOut(HttpMetrics.Timeout.STREAM_READ);
                c.resetStream(id, stream, Http2Error.CANCEL.code());
                if (c.isClosing()) {
                    return NO_DEADLINE;
                }
            } else {
                next = Math.min(next, deadline);
            }
        }
        c.flushPending();
        return next;
    }
}
