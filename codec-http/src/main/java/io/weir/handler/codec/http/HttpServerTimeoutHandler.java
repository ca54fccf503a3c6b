package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.metrics.HttpMetrics;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.Ticker;
import io.weir.util.concurrent.AbstractScheduledEventExecutor;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.Future;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Closes HTTP/1.1 server connections whose client is too slow or silent, with the limits of an
 * {@link HttpServerTimeouts}: a request head that takes too long (answered 408), a request body that arrives below
 * the minimum rate (answered 408 where a response can still be sent), and a kept-alive connection idle between
 * requests (closed quietly). Without it, a slowloris client (a partial head, one byte every few seconds) or a
 * silent one holds a connection, and its descriptor, for as long as it likes.
 *
 * <pre>{@code
 * ch.pipeline().addLast(new HttpServerCodec(), new HttpServerTimeoutHandler(timeouts),
 *         new HttpServerKeepAliveHandler(), new HttpObjectAggregator(1 << 20), new MyHandler());
 * }</pre>
 *
 * <h2>Placement</h2>
 * Directly after the {@link HttpServerCodec} (or an {@link HttpRequestDecoder}), before any handler that consumes
 * requests or content: the handler sees decoded requests and contents on the way in and responses on the way out.
 * To see the first byte of a request, which no decoded message reveals, it adds a small companion before the codec
 * when it is added (and removes it when removed); the companion passes every buffer on unchanged.
 *
 * <h2>What each clock measures</h2>
 * <ul>
 * <li>Request head: from connection start for the first request, from the first byte after the previous response
 *     for later ones, to the decoded {@link HttpRequest}. Bytes that arrive in the same read as the end of the
 *     previous request are counted from the next read instead (the decoder's leftover is not visible), which
 *     lengthens that one wait by at most the idle timeout.</li>
 * <li>Body rate: body bytes ({@link HttpContent}) per window after the grace period; a window in which auto-read
 *     was found off at its end (the application or the codec applying backpressure) starts over instead of being
 *     judged.</li>
 * <li>Idle: from the moment the last owed response was written and the channel's outbound buffer had drained,
 *     until the next byte.</li>
 * <li>Write progress: while output is queued in the channel, from the last time the client was seen reading any
 *     of it ({@link io.weir.channel.Channel#writtenBytes()} moved), checked when the timer runs. A client that stops
 *     reading is closed after the timeout whatever else is going on; one that reads slowly never is.</li>
 * </ul>
 * While the server owes a response (a request was read and its last content not yet written) or still has output
 * queued for the client, neither the head nor the idle clock runs: a long download, a client reading it slowly,
 * or a slow application is the server's time, not the client's. Queued output is looked at when the timer runs,
 * so a drain that takes longer than one timer period starts the idle clock at the first run that finds the
 * buffer empty, not at the instant it emptied (a client reading slowly gets a little more time, never less).
 * A {@code 101 Switching Protocols} response stops the handler: the new protocol brings its own timeouts.
 *
 * <h2>Timers</h2>
 * One task per connection at a time, scheduled on the channel's event loop with its {@link Ticker} (so tests drive
 * it with a manual clock). Reads and writes only update fields, never reschedule, and allocate nothing; the task,
 * when it runs, works out the current deadline and re-arms itself for it, or for the shortest configured time if
 * that is sooner, so that a state change can never leave the next check too late.
 *
 * <h2>Closing, and the 408</h2>
 * This handler has no close sequence of its own: it relies on the graceful close of the {@link HttpServerCodec}
 * before it. The 408 carries {@code Connection: close}; right after writing it the handler closes the channel
 * through the pipeline ({@link ChannelHandlerContext#close()}), and the codec, seeing that the client may still be
 * sending, flushes the 408, shuts the output down, reads and drops what the client still sends within its
 * {@linkplain HttpServerCodec#setLingerTimeoutMillis(long) time} and {@linkplain
 * HttpServerCodec#setLingerMaxBytes(long) byte} bounds, and then closes (RFC 9112 §9.6). Silent and idle
 * connections are closed the same way; with nothing sent by the client the codec closes them at once. Behind an
 * {@link HttpRequestDecoder} without the codec, nothing lingers: the channel is closed as soon as the 408 is
 * written, and input arriving meanwhile is dropped here.
 * <p>Once a close has begun, whoever started it, the handler stands down for good: no clock, no timer, no second
 * answer. It learns of a close from the close passing through it on its way to the codec; the closes the codec
 * starts itself (after answering a rejected request with 400, 413, 414 or 431) go through the whole pipeline and so
 * pass here too. While the codec lingers it discards what arrives before decoding it, so nothing reaches this
 * handler.
 *
 * <p>Called only on the channel's event loop; keeps per-connection state, so one instance per channel.
 */
public final class HttpServerTimeoutHandler implements ChannelHandler {
    private static final System.Logger LOGGER = System.getLogger(HttpServerTimeoutHandler.class.getName());

    /** No byte of the next request has arrived (or the previous request is still owed a response). */
    private static final byte AWAITING_REQUEST = 0;
    /** Some bytes of a request arrived, its head is not decoded yet. */
    private static final byte IN_HEAD = 1;
    /** The head was decoded, the last content not yet. */
    private static final byte IN_BODY = 2;
    /** A close has begun (a 408, a timeout, or anyone's close): no clock, no answer, inbound messages dropped. */
    private static final byte CLOSING = 3;
    /** Not yet started, or stopped (inactive, removed, upgraded): does nothing. */
    private static final byte STOPPED = 4;

    private static final long NO_DEADLINE = Long.MAX_VALUE;

    private final long headTimeoutNanos;
    private final long idleTimeoutNanos;
    private final long minBodyRate;
    private final long gracePeriodNanos;
    private final long windowNanos;
    private final long writeProgressTimeoutNanos;
    /** The longest a task may sleep: the shortest time any state change could start a new deadline with. */
    private final long tickBoundNanos;

    private final Runnable tick = this::onTick;
    private final ChannelFutureListener closeWhenWritten = this::closeWhenWritten;
    private final InputObserver inputObserver = new InputObserver();

    private ChannelHandlerContext ctx;
    private Ticker ticker;
    private Future<?> timer;
    private boolean started;
    private byte phase = STOPPED;

    private long requestsReceived;
    private long responsesBegun;
    /** Final responses whose last content was written (queued) by the application. */
    private long responsesWritten;
    private boolean responseInProgress;

    private long headStartNanos;
    private long idleStartNanos;
    private long bodyStartNanos;
    private boolean rateWindowOpen;
    private long windowStartNanos;
    private long windowBytes;
    /** Whether output was found queued at the last tick: the write-progress clock is running. */
    private boolean writeClockRunning;
    private long writeProgressNanos;
    private long writtenBytesSeen;
    /** Whether an {@link HttpServerCodec} is in the pipeline to close gracefully (rather than a bare decoder). */
    private boolean codecLingers;
    /** Where fired timeouts are counted; null when nobody asked. */
    private final HttpMetrics metrics;

    /** A handler with the {@link HttpServerTimeouts} defaults. */
    public HttpServerTimeoutHandler() {
        this(new HttpServerTimeouts());
    }

    /**
     * A handler with the limits of {@code timeouts}, copied now.
     *
     * @throws NullPointerException if {@code timeouts} is null
     */
    public HttpServerTimeoutHandler(HttpServerTimeouts timeouts) {
        this(timeouts, null);
    }

    /**
     * A handler with the limits of {@code timeouts}, copied now, that counts into {@code metrics} (null: counts
     * nothing) each timeout it acts on ({@link HttpMetrics#timeouts()}) and, as it sees every response anyway, each
     * response head by status class ({@link HttpMetrics#responses()}), its own 408s included: a server with this
     * handler needs no other response counter on its HTTP/1.1 connections.
     *
     * @throws NullPointerException if {@code timeouts} is null
     */
    public HttpServerTimeoutHandler(HttpServerTimeouts timeouts, HttpMetrics metrics) {
        Objects.requireNonNull(timeouts, "timeouts");
        this.metrics = metrics;
        headTimeoutNanos = timeouts.requestHeadTimeoutNanos();
        idleTimeoutNanos = timeouts.idleTimeoutNanos();
        minBodyRate = timeouts.minBodyRateBytesPerSecond();
        gracePeriodNanos = timeouts.bodyRateGracePeriodNanos();
        windowNanos = timeouts.bodyRateWindowNanos();
        writeProgressTimeoutNanos = timeouts.writeProgressTimeoutNanos();
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

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
        ChannelHandlerContext codec = ctx.pipeline().context(HttpServerCodec.class);
        codecLingers = codec != null;
        if (codec == null) {
            codec = ctx.pipeline().context(HttpRequestDecoder.class);
        }
        if (codec == null) {
            throw new IllegalStateException("HttpServerTimeoutHandler must be placed after an HttpServerCodec or "
                    + "HttpRequestDecoder; pipeline: " + ctx.pipeline().names());
        }
        ctx.pipeline().addBefore(codec.name(), null, inputObserver);
        if (ctx.channel().isActive() && ctx.channel().isRegistered()) {
            start();
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        stop();
        if (ctx.pipeline().context(inputObserver) != null) {
            ctx.pipeline().remove(inputObserver);
        }
    }

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isActive()) {
            start();
        }
        ctx.fireChannelRegistered();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        start();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        stop();
        ctx.fireChannelInactive();
    }

    private void start() {
        // Once: handlerAdded, channelRegistered and channelActive may each find the channel active.
        if (started) {
            return;
        }
        started = true;
        ticker = tickerOf(ctx.executor());
        long now = ticker.nanoTime();
        headStartNanos = idleStartNanos = now;
        phase = AWAITING_REQUEST;
        if (tickBoundNanos != NO_DEADLINE) {
            arm(now, NO_DEADLINE);
        }
    }

    private void stop() {
        standDown(STOPPED);
    }

    /** Ends every clock for good: {@link #STOPPED}, or {@link #CLOSING} once a close has begun. */
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

    // ---------------------------------------------------------------- inbound

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        byte p = phase;
        if (p == CLOSING) {
            // Closing: nothing more of this connection reaches the application. Behind HttpServerCodec nothing
            // arrives here (it discards input while it lingers); behind a bare decoder, what arrives before the
            // close completes is dropped here.
            ReferenceCountUtil.release(msg);
            return;
        }
        if (p != STOPPED) {
            if (msg instanceof HttpRequest) {
                requestsReceived++;
                phase = IN_BODY;
                bodyStartNanos = ticker.nanoTime();
                rateWindowOpen = false;
                windowBytes = 0;
            }
            if (msg instanceof HttpContent content) {
                windowBytes += content.content().readableBytes();
                if (msg instanceof LastHttpContent) {
                    phase = AWAITING_REQUEST;
                }
            }
        }
        ctx.fireChannelRead(msg);
    }

    /** Called by the companion before the codec for every buffer that brings bytes. */
    private void bytesArrived() {
        if (phase == AWAITING_REQUEST) {
            phase = IN_HEAD;
            if (requestsReceived != 0) {
                // Later requests: the head clock starts at their first byte (the first one's at connection start).
                headStartNanos = ticker.nanoTime();
            }
        }
    }

    // ---------------------------------------------------------------- outbound

    /**
     * A close on its way to the codec, from this handler or from any handler or caller after it: the handler stands
     * down before the codec begins its graceful close, so that no clock runs and nothing is answered while the
     * codec lingers.
     */
    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
        if (phase != STOPPED) {
            standDown(CLOSING);
        }
        ctx.close(promise);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (metrics != null && msg instanceof HttpResponse counted) {
            metrics.response(counted.status().code());
        }
        if (phase == STOPPED || phase == CLOSING) {
            ctx.write(msg, promise);
            return;
        }
        if (msg instanceof HttpResponse response) {
            int code = response.status().code();
            if (code == 101) {
                // RFC 9110 §15.2.2: after this response the connection speaks another protocol.
                stop();
                ctx.write(msg, promise);
                return;
            }
            if (code < 200) {
                // Interim (100 Continue, 103 Early Hints): the final response is still owed.
                ctx.write(msg, promise);
                return;
            }
            responsesBegun++;
            responseInProgress = true;
        }
        if (responseInProgress && msg instanceof LastHttpContent) {
            responseInProgress = false;
            responsesWritten++;
            if (requestsReceived <= responsesWritten) {
                // Nothing owed any more: the client's clocks start now, unless output is still queued when the
                // timer runs (see onTick). No listener on the promise: it may be the void one, and a new promise
                // per response would allocate.
                long now = ticker.nanoTime();
                idleStartNanos = now;
                headStartNanos = now;
            }
        }
        ctx.write(msg, promise);
    }

    // ---------------------------------------------------------------- the timer

    private void arm(long now, long deadline) {
        long fire = Math.min(deadline, now + tickBoundNanos);
        timer = ctx.executor().schedule(tick, Math.max(0, fire - now), TimeUnit.NANOSECONDS);
    }

    private void onTick() {
        timer = null;
        if (phase == STOPPED || phase == CLOSING || !ctx.channel().isOpen()) {
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
        if (deadline != 0 && phase != STOPPED && phase != CLOSING && ctx.channel().isOpen()) {
            arm(now, deadline);
        }
    }

    /** Acts on any expired clock; returns the next deadline, {@link #NO_DEADLINE}, or 0 to stop ticking. */
    private long check(long now) {
        if (writeProgressTimeoutNanos > 0 && !checkWriteProgress(now)) {
            return 0;
        }
        if (phase == IN_BODY) {
            return checkBodyRate(now);
        }
        if (requestsReceived > responsesWritten) {
            // The server owes a response: its time, not the client's.
            return NO_DEADLINE;
        }
        if (hasQueuedOutput()) {
            // Still sending to the client: its clocks start once the output has drained.
            idleStartNanos = now;
            headStartNanos = now;
            return NO_DEADLINE;
        }
        boolean firstRequest = requestsReceived == 0;
        if (phase == IN_HEAD || firstRequest && headTimeoutNanos > 0) {
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
                answer408();
                return 0;
            }
            log("no request on a new connection after {0} ms", TimeUnit.NANOSECONDS.toMillis(headTimeoutNanos));
            // Nothing was sent, so the codec has nothing to linger for: it closes at once, quietly.
            ctx.close();
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
        ctx.close();
        return 0;
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
        ctx.close();
        return false;
    }

    /** Whether the channel's outbound buffer holds bytes (flushed or not) that have not reached the socket. */
    private boolean hasQueuedOutput() {
        // Nothing queued: the bytes before unwritability are the high-water mark plus one.
        return ctx.channel().bytesBeforeUnwritable() <= ctx.channel().config().getWriteBufferWaterMark().high();
    }

    private long checkBodyRate(long now) {
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
        boolean canAnswer = !responseInProgress && responsesBegun == requestsReceived - 1;
        if (canAnswer) {
            answer408();
            return 0;
        }
        // A response has begun and cannot be replaced: close; the codec lingers, the client is inside a body.
        ctx.close();
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

    // ---------------------------------------------------------------- 408

    /**
     * RFC 9110 §15.5.9: 408 with {@code Connection: close}, then the close; the rest of the request is never read.
     * Behind {@link HttpServerCodec} the close follows the write at once: the codec then discards input from this
     * moment on, flushes the 408 before it shuts the output down, and lingers. Behind a bare decoder the close waits
     * for the write, so that it does not fail the 408 still queued; nothing lingers.
     */
    private void answer408() {
        standDown(CLOSING);
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.REQUEST_TIMEOUT,
                Unpooled.EMPTY_BUFFER);
        res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                .set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO);
        if (metrics != null) {
            // Written from here, it does not pass through this handler's write.
            metrics.response(HttpResponseStatus.REQUEST_TIMEOUT.code());
        }
        ChannelFuture written = ctx.writeAndFlush(res);
        if (codecLingers) {
            ctx.close();
        } else {
            written.addListener(closeWhenWritten);
        }
    }

    private void closeWhenWritten(ChannelFuture written) {
        ctx.close();
    }

    /** Before the codec: reports each read that brings bytes; passes every buffer on unchanged. */
    private final class InputObserver implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext observerCtx, Object msg) throws Exception {
            if (msg instanceof ByteBuf buf && buf.isReadable()) {
                bytesArrived();
            }
            observerCtx.fireChannelRead(msg);
        }
    }
}
