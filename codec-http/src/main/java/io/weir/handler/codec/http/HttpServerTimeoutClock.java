package io.weir.handler.codec.http;

import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandlerContext;
import io.weir.metrics.HttpMetrics;
import io.weir.util.Ticker;
import io.weir.util.concurrent.AbstractScheduledEventExecutor;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The clocks of an HTTP/1.1 server connection's waits on its client (request head, body rate, keep-alive idle,
 * write progress), on one timer: what {@link HttpServerTimeoutHandler} and {@link HttpServerCodec} built with an
 * {@link HttpServerPolicy} apply. It keeps no request or response count of its own: it asks its {@link Exchange},
 * the one owner of those counts, and is told of each event by it. See {@link HttpServerTimeoutHandler} for what
 * each clock measures and why. Only called on the channel's event loop; one per connection.
 */
final class HttpServerTimeoutClock {
    private static final System.Logger LOGGER = System.getLogger(HttpServerTimeoutClock.class.getName());

    /** The counts the clock reads and the actions it asks for, kept by the handler that owns the exchange. */
    interface Exchange {
        /** Requests received so far. */
        long requestsReceived();

        /** Final responses whose last content was written (queued) so far. */
        long responsesWritten();

        /** Whether the request whose body is arriving can still be answered: no response to it has begun. */
        boolean canAnswerCurrentRequest();

        /** Answers 408 with {@code Connection: close} and closes; the clock has stood down already. */
        void answerRequestTimeout() throws Exception;

        /** Closes the connection; the clock has stood down already. */
        void closeForTimeout();
    }

    /** No byte of the next request has arrived (or the previous request is still owed a response). */
    private static final byte AWAITING_REQUEST = 0;
    /** Some bytes of a request arrived, its head is not decoded yet. */
    private static final byte IN_HEAD = 1;
    /** The head was decoded, the last content not yet. */
    private static final byte IN_BODY = 2;
    /** A close has begun (a 408, a timeout, or anyone's close): no clock, no answer. */
    private static final byte CLOSING = 3;
    /** Not yet started, or stopped (inactive, removed, upgraded): does nothing. */
    private static final byte STOPPED = 4;

    private static final long NO_DEADLINE = Long.MAX_VALUE;

    private final Exchange exchange;
    private final HttpMetrics metrics;
    private final long headTimeoutNanos;
    private final long idleTimeoutNanos;
    private final long minBodyRate;
    private final long gracePeriodNanos;
    private final long windowNanos;
    private final long writeProgressTimeoutNanos;
    /** The longest a task may sleep: the shortest time any state change could start a new deadline with. */
    private final long tickBoundNanos;
    private final Runnable tick = this::onTick;

    private ChannelHandlerContext ctx;
    private Ticker ticker;
    private Future<?> timer;
    private boolean started;
    private byte phase = STOPPED;

    private long headStartNanos;
    private long idleStartNanos;
    /** The time of the socket read being handled, while {@link #readClock} (see {@link #readStarted()}). */
    private long readNanos;
    private boolean readClock;
    private long bodyStartNanos;
    private boolean rateWindowOpen;
    private long windowStartNanos;
    private long windowBytes;
    /** Whether output was found queued at the last tick: the write-progress clock is running. */
    private boolean writeClockRunning;
    private long writeProgressNanos;
    private long writtenBytesSeen;

    HttpServerTimeoutClock(HttpServerPolicy policy, HttpMetrics metrics, Exchange exchange) {
        this.exchange = exchange;
        this.metrics = metrics;
        headTimeoutNanos = policy.requestHeadTimeout().toNanos();
        idleTimeoutNanos = policy.idleTimeout().toNanos();
        minBodyRate = policy.minBodyRate();
        gracePeriodNanos = policy.bodyRateGracePeriod().toNanos();
        windowNanos = policy.bodyRateWindow().toNanos();
        writeProgressTimeoutNanos = policy.writeTimeout().toNanos();
        long bound = NO_DEADLINE;
        // A quarter of the write-progress timeout: output is seen queued at a tick, so the clock may start up to
        // one tick late; a close comes between the timeout and 1.25 times it.
        bound = shorterEnabled(bound, writeProgressTimeoutNanos / 4);
        bound = shorterEnabled(bound, headTimeoutNanos);
        bound = shorterEnabled(bound, idleTimeoutNanos);
        if (minBodyRate > 0) {
            bound = shorterEnabled(bound, Math.max(gracePeriodNanos, 1));
        }
        tickBoundNanos = bound;
    }

    private static long shorterEnabled(long bound, long timeoutNanos) {
        return timeoutNanos > 0 ? Math.min(bound, timeoutNanos) : bound;
    }

    // ---------------------------------------------------------------- life cycle

    /** Starts the clocks on {@code ctx}'s channel, once; later calls do nothing. */
    void start(ChannelHandlerContext ctx) {
        // Once: handlerAdded, channelRegistered and channelActive may each find the channel active.
        if (started) {
            return;
        }
        started = true;
        this.ctx = ctx;
        ticker = tickerOf(ctx.executor());
        long now = ticker.nanoTime();
        headStartNanos = idleStartNanos = now;
        phase = AWAITING_REQUEST;
        if (tickBoundNanos != NO_DEADLINE) {
            arm(now, NO_DEADLINE);
        }
    }

    /** Stops every clock for good (inactive, removed, or the connection switched protocols). */
    void stop() {
        standDown(STOPPED);
    }

    /** A close has begun, whoever started it: stops every clock for good, and no timeout is answered. */
    void closing() {
        if (phase != STOPPED) {
            standDown(CLOSING);
        }
    }

    /** Whether a close has begun while the clocks ran. */
    boolean isClosing() {
        return phase == CLOSING;
    }

    /** Whether the clocks are running: started, and neither stopped nor closing. */
    boolean isRunning() {
        return phase < CLOSING;
    }

    private void standDown(byte finalPhase) {
        started = true;
        phase = finalPhase;
        Future<?> t = timer;
        timer = null;
        if (t != null) {
            t.cancel(false);
        }
    }

    private static Ticker tickerOf(EventExecutor executor) {
        return executor instanceof AbstractScheduledEventExecutor scheduled ? scheduled.ticker() : Ticker.system();
    }

    // ---------------------------------------------------------------- events

    /**
     * A read of the socket begins; until {@link #readEnded()}, its time is the clocks' now. The events of one read
     * (a request's first bytes, its head, the response written in answer) happen within microseconds of each
     * other, far inside any timeout's precision, and a clock read costs 20 ns and more on some machines: this
     * leaves one per read instead of three per request. Only for a caller that always calls
     * {@link #readEnded()} after it.
     */
    void readStarted() {
        if (ticker != null) {
            readNanos = ticker.nanoTime();
            readClock = true;
        }
    }

    /** The read begun by {@link #readStarted()} was handled: the clocks read the ticker again. */
    void readEnded() {
        readClock = false;
    }

    private long now() {
        return readClock ? readNanos : ticker.nanoTime();
    }

    /** Bytes of the connection arrived (before decoding). */
    void bytesArrived() {
        if (phase == AWAITING_REQUEST) {
            phase = IN_HEAD;
            if (exchange.requestsReceived() != 0) {
                // Later requests: the head clock starts at their first byte (the first one's at connection start).
                headStartNanos = now();
            }
        }
    }

    /** A request head was decoded (and counted by the exchange). */
    void requestReceived() {
        if (isRunning()) {
            phase = IN_BODY;
            bodyStartNanos = now();
            rateWindowOpen = false;
            windowBytes = 0;
        }
    }

    /** Body bytes were decoded; {@code last}: the request is complete. */
    void contentReceived(int bytes, boolean last) {
        if (isRunning()) {
            windowBytes += bytes;
            if (last) {
                phase = AWAITING_REQUEST;
            }
        }
    }

    /** The last content of a final response was written (and counted by the exchange). */
    void responseWritten() {
        if (isRunning() && exchange.requestsReceived() <= exchange.responsesWritten()) {
            // Nothing owed any more: the client's clocks start now, unless output is still queued when the timer
            // runs (see onTick).
            long now = now();
            idleStartNanos = now;
            headStartNanos = now;
        }
    }

    // ---------------------------------------------------------------- the timer

    private void arm(long now, long deadline) {
        long fire = Math.min(deadline, now + tickBoundNanos);
        timer = ctx.executor().schedule(tick, Math.max(0, fire - now), TimeUnit.NANOSECONDS);
    }

    private void onTick() {
        timer = null;
        if (!isRunning() || !ctx.channel().isOpen()) {
            return;
        }
        long now = ticker.nanoTime();
        long deadline;
        try {
            deadline = check(now);
        } catch (Throwable t) {
            ctx.fireExceptionCaught(t);
            return;
        }
        if (deadline != 0 && isRunning() && ctx.channel().isOpen()) {
            arm(now, deadline);
        }
    }

    /** Acts on any expired clock; returns the next deadline, {@link #NO_DEADLINE}, or 0 to stop ticking. */
    private long check(long now) throws Exception {
        if (writeProgressTimeoutNanos > 0 && !checkWriteProgress(now)) {
            return 0;
        }
        if (phase == IN_BODY) {
            return checkBodyRate(now);
        }
        long received = exchange.requestsReceived();
        if (received > exchange.responsesWritten()) {
            // The server owes a response: its time, not the client's.
            return NO_DEADLINE;
        }
        if (hasQueuedOutput()) {
            // Still sending to the client: its clocks start once the output has drained.
            idleStartNanos = now;
            headStartNanos = now;
            return NO_DEADLINE;
        }
        if (phase == IN_HEAD || received == 0 && headTimeoutNanos > 0) {
            if (headTimeoutNanos == 0) {
                return NO_DEADLINE;
            }
            long deadline = headStartNanos + headTimeoutNanos;
            if (now - deadline < 0) {
                return deadline;
            }
            timedOut(HttpMetrics.Timeout.REQUEST_HEAD);
            if (phase == IN_HEAD) {
                log("request head not complete after {0} ms", TimeUnit.NANOSECONDS.toMillis(headTimeoutNanos));
                standDown(CLOSING);
                exchange.answerRequestTimeout();
                return 0;
            }
            log("no request on a new connection after {0} ms", TimeUnit.NANOSECONDS.toMillis(headTimeoutNanos));
            // Nothing was sent, so the codec has nothing to linger for: it closes at once, quietly.
            close();
            return 0;
        }
        if (idleTimeoutNanos == 0) {
            return NO_DEADLINE;
        }
        long deadline = idleStartNanos + idleTimeoutNanos;
        if (now - deadline < 0) {
            return deadline;
        }
        timedOut(HttpMetrics.Timeout.IDLE);
        log("connection idle for {0} ms", TimeUnit.NANOSECONDS.toMillis(idleTimeoutNanos));
        close();
        return 0;
    }

    private void close() {
        standDown(CLOSING);
        exchange.closeForTimeout();
    }

    /**
     * The write-progress clock: runs while output is queued, restarted whenever the channel's written-byte count
     * moved since the last tick. Returns false after closing a connection whose client read nothing for the
     * timeout.
     */
    private boolean checkWriteProgress(long now) {
        if (!hasQueuedOutput()) {
            writeClockRunning = false;
            return true;
        }
        long written = ctx.channel().writtenBytes();
        if (!writeClockRunning || written != writtenBytesSeen) {
            writeClockRunning = true;
            writtenBytesSeen = written;
            writeProgressNanos = now;
            return true;
        }
        if (now - writeProgressNanos < writeProgressTimeoutNanos) {
            return true;
        }
        timedOut(HttpMetrics.Timeout.WRITE_PROGRESS);
        log("client read none of its queued output for {0} ms",
                TimeUnit.NANOSECONDS.toMillis(writeProgressTimeoutNanos));
        close();
        return false;
    }

    /** Whether the channel's outbound buffer holds bytes (flushed or not) that have not reached the socket. */
    private boolean hasQueuedOutput() {
        // Nothing queued: the bytes before unwritability are the high-water mark plus one.
        return ctx.channel().bytesBeforeUnwritable() <= ctx.channel().config().getWriteBufferWaterMark().high();
    }

    private long checkBodyRate(long now) throws Exception {
        if (minBodyRate == 0) {
            return NO_DEADLINE;
        }
        if (!ctx.channel().config().isAutoRead()) {
            // The server is not reading: the client cannot be blamed for this window.
            rateWindowOpen = false;
            bodyStartNanos = now;
            return now + gracePeriodNanos;
        }
        if (!rateWindowOpen) {
            long graceEnd = bodyStartNanos + gracePeriodNanos;
            if (now - graceEnd < 0) {
                return graceEnd;
            }
            rateWindowOpen = true;
            windowStartNanos = now;
            windowBytes = 0;
            return now + windowNanos;
        }
        long elapsed = now - windowStartNanos;
        if (elapsed < windowNanos) {
            return windowStartNanos + windowNanos;
        }
        // Doubles: bytes * 1e9 overflows a long after 9 GB, and this runs once per window.
        double required = (double) minBodyRate * elapsed / 1e9;
        if (windowBytes >= required) {
            windowStartNanos = now;
            windowBytes = 0;
            return now + windowNanos;
        }
        timedOut(HttpMetrics.Timeout.BODY_RATE);
        log("request body below the minimum rate of {0} bytes/s", minBodyRate);
        if (exchange.canAnswerCurrentRequest()) {
            standDown(CLOSING);
            exchange.answerRequestTimeout();
            return 0;
        }
        // A response has begun and cannot be replaced: close; the codec lingers, the client is inside a body.
        close();
        return 0;
    }

    private void timedOut(HttpMetrics.Timeout kind) {
        if (metrics != null) {
            metrics.timeout(kind);
        }
    }

    private void log(String message, long value) {
        if (LOGGER.isLoggable(System.Logger.Level.DEBUG)) {
            LOGGER.log(System.Logger.Level.DEBUG, message + ", closing " + ctx.channel(), value);
        }
    }

    /**
     * A new 408 (Request Timeout) with {@code Connection: close} and no content (RFC 9110 §15.5.9): the rest of the
     * request is never read.
     */
    static FullHttpResponse requestTimeout() {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.REQUEST_TIMEOUT,
                Unpooled.EMPTY_BUFFER);
        res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                .set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO);
        return res;
    }
}
