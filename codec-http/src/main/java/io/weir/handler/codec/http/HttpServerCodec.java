package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.Channel;
import io.weir.channel.ChannelConfig;
import io.weir.channel.ChannelDrainEvent;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelInputShutdownEvent;
import io.weir.channel.ChannelPromise;
import io.weir.channel.ChannelShutdownDirection;
import io.weir.channel.ChannelShutdownEvent;
import io.weir.channel.DuplexChannel;
import io.weir.metrics.HttpMetrics;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.ScheduledFuture;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The server side of HTTP/1.1 in one handler: an {@link HttpRequestDecoder} for what arrives and an
 * {@link HttpResponseEncoder} for what the application writes, paired so that a response to HEAD carries no body,
 * and a guard that answers rejected requests itself.
 *
 * <pre>{@code
 * ch.pipeline().addLast(new HttpServerCodec(HttpServerPolicy.defaults()), new HttpObjectAggregator(1 << 20),
 *         new MyHandler());
 * }</pre>
 *
 * <h2>The exchange: keep-alive and timeouts</h2>
 * Built with an {@link HttpServerPolicy}, the codec owns the whole exchange from its one count of requests passed
 * on and responses written, with no other handler to place or order:
 * <ul>
 * <li><b>Persistence</b> (RFC 9112 §9.3), as {@link HttpServerKeepAliveHandler} describes: a request or response
 *     that does not persist, or a response whose length only the close could tell, closes the connection after
 *     that response (never under a response still owed to an earlier pipelined request), marked
 *     {@code Connection: close}; an HTTP/1.0 keep-alive is answered with {@code Connection: keep-alive}; a
 *     {@link ChannelDrainEvent} closes an idle connection at once and a busy one after its response. With
 *     {@linkplain HttpServerPolicy#keepAlive() keep-alive off} every response closes the connection.</li>
 * <li><b>Timeouts</b>, as {@link HttpServerTimeoutHandler} describes: a request head that takes too long or a body
 *     below the minimum rate is answered 408 and closed gracefully, a silent or idle connection is closed quietly,
 *     a client that reads none of its queued output within the write timeout is closed.</li>
 * <li><b>Linger</b>: the policy's linger time and byte bounds (see "Closing" below).</li>
 * </ul>
 * Without a policy ({@link #HttpServerCodec()} and the other constructors) the codec does none of this: the
 * connection persists until someone closes it, as the handlers after it decide.
 *
 * <h2>Rejected requests</h2>
 * When the decoder rejects a request (see {@link HttpObjectDecoder}), the codec answers it with the matching
 * status and {@code Connection: close}, then closes the connection: 400 for a malformed request
 * ({@link InvalidHttpMessageException}, whose {@link HttpViolation#statusCode()} also yields 501 for an unknown
 * transfer coding and 505 for an unsupported version), 413 for {@link TooLongHttpContentException}, 414 for
 * {@link TooLongHttpLineException} and 431 for {@link TooLongHttpHeaderException}. Bytes after the rejection are
 * discarded unread, and the connection is closed gracefully (see "Closing" below).
 * <ul>
 * <li>A request rejected in its request line or header fields never reaches the next handlers: there is nothing a
 *     handler could safely do with it.</li>
 * <li>A request rejected in its body (a bad chunk, a body above the limit) has already been passed on; the failed
 *     {@link LastHttpContent} is passed on too, so handlers and aggregators learn why it ended. If no handler has
 *     begun a response to it by the time that call returns, the codec answers it; otherwise it closes the
 *     connection once that response is written.</li>
 * </ul>
 * Either way the answer waits until the responses to the requests before it have been written, so pipelined
 * responses stay in request order.
 *
 * <h2>Pipelining and backpressure</h2>
 * Pipelined requests are decoded and passed on one after another; the application must write the responses in
 * request order (as any handler that answers synchronously does), and the codec pairs each response with the
 * method of the request it answers in that order. A client cannot make the server queue without bound:
 * <ul>
 * <li><b>Responses.</b> While the channel is not {@linkplain Channel#isWritable() writable} (its queued bytes went
 *     above the high-water mark, typically because the client does not read), the codec decodes nothing more, not
 *     even what a read already brought, and turns auto-read off; when the channel becomes writable again it decodes
 *     what it kept and reads on. So a connection holds about its high-water mark of responses, plus one response
 *     and one read, whatever the client sends. The check is one field read per message or body content.</li>
 * <li><b>Requests.</b> Once {@linkplain #setMaxPendingRequests(int) the limit} of requests passed on without a
 *     response begun is reached, the codec turns auto-read off (what one read already brought is still decoded)
 *     and turns it back on when the application has begun answering half of them.</li>
 * </ul>
 * The codec only turns on the auto-read it turned off. While it holds reading off, read requests from the handlers
 * after it wait until it resumes.
 * <p>Small whole responses ({@link FullHttpResponse}s with up to 4 KiB of content) written with the
 * {@linkplain Channel#voidPromise() void promise} while a read is being decoded are encoded into one buffer, passed
 * on when the read has been decoded (or earlier: at a flush, before any other write, or once it holds
 * {@value #RESPONSE_BATCH_BYTES} bytes), so a pipelined batch leaves as one buffer. Responses written with a promise
 * of their own, or outside a read, are passed on at once, as is every byte once the read has been decoded.
 *
 * <h2>Closing</h2>
 * A close requested (by the codec after a rejection, or by any handler, for instance after a {@code 413}) while
 * the client may still be sending (inside a request, bytes not yet decoded, or input rejected) is graceful
 * (RFC 9112 §9.6): what was written is flushed, the output is shut down (the client sees the end of the response),
 * and whatever the client still sends is read and dropped until it closes its side, {@linkplain
 * #setLingerMaxBytes(long) a byte limit} is passed or {@linkplain #setLingerTimeoutMillis(long) a time limit}
 * elapses, whichever comes first; then the channel closes and the close's promise completes. Closing at once would
 * make the kernel answer the unread bytes with a reset, which can destroy the response before the client reads
 * it. Channels that cannot half-close (not a {@link DuplexChannel}) close at once, as does a close at a message
 * boundary with nothing buffered.
 * <p>This is the server pipeline's one graceful close: {@link HttpServerTimeoutHandler} has none of its own and
 * relies on it. After its 408 it closes the channel through the pipeline, and the codec lingers as for any other
 * close (without the codec in front, the timeout handler's close is immediate). The closes the codec starts itself,
 * after answering a rejected request, go through the whole pipeline ({@link Channel#close()}), so handlers after it
 * see them in their {@code close} method before the codec begins to linger: the timeout handler stands down there,
 * and arms no clock for the bytes the client still sends. While lingering, the codec drops input before decoding
 * it, so no handler after it sees any.
 *
 * <h2>Threads and ownership</h2>
 * Called only on the channel's event loop. Keeps per-connection state: one instance per channel.
 */
public final class HttpServerCodec implements ChannelHandler {
    private static final System.Logger LOGGER = System.getLogger(HttpServerCodec.class.getName());
    /** Whether an allocation failure was logged at WARNING already (once per JVM). */
    private static final java.util.concurrent.atomic.AtomicBoolean OUT_OF_MEMORY_LOGGED =
            new java.util.concurrent.atomic.AtomicBoolean();
    private static final int CLOSE_WITHOUT_ANSWER = -1;
    /** Default of {@link #setMaxPendingRequests(int)}. */
    public static final int DEFAULT_MAX_PENDING_REQUESTS = 128;
    /** Default of {@link #setLingerTimeoutMillis(long)}: 2 s, enough for a client on a slow link to see the answer. */
    public static final long DEFAULT_LINGER_TIMEOUT_MILLIS = 2_000;
    /** Default of {@link #setLingerMaxBytes(long)}: 1 MiB, what a client sends in flight before it reads the answer. */
    public static final long DEFAULT_LINGER_MAX_BYTES = 1 << 20;

    /**
     * Small whole responses written with a void promise while a read is decoded are encoded one after another
     * into one buffer, passed on when the read has been decoded, at a flush, before any other write, or once it
     * holds this many bytes: one buffer and one outbound entry for a pipelined batch instead of one per response.
     * Small, because bytes held here are not yet counted against the channel's high-water mark, and passed on
     * early once they would take the channel past that mark; and never held past the read, so between reads every
     * written byte is in the channel's outbound buffer as before.
     */
    static final int RESPONSE_BATCH_BYTES = 2048;

    private static final int PAUSED_FOR_REQUESTS = 1;
    private static final int PAUSED_FOR_WRITABILITY = 2;

    private final RequestDecoder decoder;
    private final ResponseEncoder encoder = new ResponseEncoder();
    /** Methods of the requests passed on whose responses have not begun, oldest first. */
    /** Sized for a few pipelined requests; it grows with a pipelining client (capped by maxPendingRequests). */
    private final ArrayDeque<HttpMethod> methods = new ArrayDeque<>(4);
    private HttpMethod respondingTo;
    private long requestsPassed;
    private long responsesDone;
    private boolean responseInProgress;
    private int maxPendingRequests = DEFAULT_MAX_PENDING_REQUESTS;
    private long lingerTimeoutMillis = DEFAULT_LINGER_TIMEOUT_MILLIS;
    private long lingerMaxBytes = DEFAULT_LINGER_MAX_BYTES;

    /** The policy's timeouts; null when built without a policy. */
    private final HttpServerTimeoutClock clock;
    /** Whether the codec applies connection persistence (built with a policy). */
    private final boolean managesKeepAlive;
    /** Where responses and fired timeouts are counted; null when nobody asked. */
    private final HttpMetrics metrics;
    /** The number of the last response before the connection closes (1 is the first); MAX_VALUE while it persists. */
    private long keepAliveUntil = Long.MAX_VALUE;
    /** Whether the most recent request was an HTTP/1.0 one asking for keep-alive. */
    private boolean http10KeepAlive;
    /** Whether the final response in progress is a {@code 101 Switching Protocols}. */
    private boolean switchingProtocols;

    private ChannelHandlerContext ctx;
    /** Encoded responses not yet passed on (see RESPONSE_BATCH_BYTES); null when there are none. */
    private ByteBuf responseBatch;
    /** Whether a read is being decoded: only then are responses batched. */
    private boolean decodingRead;
    /** Why reading is paused: a set of PAUSED_FOR_* bits, 0 when it is not. */
    private int pausedFor;
    /** Whether this codec turned auto-read off (it only turns back on what it turned off). */
    private boolean autoReadTurnedOff;
    /** Whether a handler after the codec asked for a read while reading was paused for writability. */
    private boolean readRequested;
    private boolean resumeScheduled;
    private final Runnable resumeTask = this::resumeAfterWritable;
    /** An input shutdown that arrived while undecoded requests waited for writability; passed on once they are. */
    private ChannelShutdownEvent deferredInputShutdown;

    /** Non-null while closing gracefully: the promise of the close that will end the linger. */
    private ChannelPromise lingerPromise;
    private boolean lingering;
    private long lingerBytes;
    private ScheduledFuture<?> lingerTimer;

    private boolean rejected;
    private boolean rejectionInBody;
    private int rejectionStatus;
    /** How many responses must have been written before the rejection is answered. */
    private long rejectionAfter;
    private boolean rejectionAnswered;

    /** A codec with the {@link HttpDecoderConfig} defaults. */
    public HttpServerCodec() {
        this(new HttpDecoderConfig());
    }

    /**
     * A codec with the given decoder limits and the other defaults.
     *
     * @throws IllegalArgumentException if a limit is not positive
     */
    public HttpServerCodec(int maxInitialLineLength, int maxHeaderSize, int maxChunkSize) {
        this(new HttpDecoderConfig().setMaxInitialLineLength(maxInitialLineLength).setMaxHeaderSize(maxHeaderSize)
                .setMaxChunkSize(maxChunkSize));
    }

    /**
     * A codec whose decoder uses {@code config}, copied now.
     *
     * @throws NullPointerException if {@code config} is null
     */
    public HttpServerCodec(HttpDecoderConfig config) {
        decoder = new RequestDecoder(config);
        clock = null;
        managesKeepAlive = false;
        metrics = null;
    }

    /**
     * A codec with the {@link HttpDecoderConfig} defaults that applies {@code policy}: keep-alive, the timeouts and
     * the linger bounds (see "The exchange" above).
     *
     * @throws NullPointerException if {@code policy} is null
     */
    public HttpServerCodec(HttpServerPolicy policy) {
        this(new HttpDecoderConfig(), policy, null);
    }

    /**
     * A codec whose decoder uses {@code config} (copied now) and that applies {@code policy}, counting into
     * {@code metrics} (null: nothing) each response head by status class ({@link HttpMetrics#responses()}), its
     * own answers to timeouts included, and each timeout it acts on ({@link HttpMetrics#timeouts()}).
     *
     * @throws NullPointerException if {@code config} or {@code policy} is null
     */
    public HttpServerCodec(HttpDecoderConfig config, HttpServerPolicy policy, HttpMetrics metrics) {
        Objects.requireNonNull(policy, "policy");
        decoder = new RequestDecoder(config);
        this.metrics = metrics;
        managesKeepAlive = true;
        if (!policy.keepAlive()) {
            keepAliveUntil = 1;
        }
        lingerTimeoutMillis = policy.lingerTimeout().toMillis();
        lingerMaxBytes = policy.lingerMaxBytes();
        clock = new HttpServerTimeoutClock(policy, metrics, new Exchange());
    }

    /**
     * Sets how many requests may have been passed on without a response begun before the codec stops reading
     * (see "Pipelining" above). Call it before the channel becomes active.
     *
     * @return this codec
     * @throws IllegalArgumentException if {@code maxPendingRequests} is not positive
     */
    public HttpServerCodec setMaxPendingRequests(int maxPendingRequests) {
        if (maxPendingRequests <= 0) {
            throw new IllegalArgumentException("maxPendingRequests: " + maxPendingRequests + " (expected: > 0)");
        }
        this.maxPendingRequests = maxPendingRequests;
        return this;
    }

    /** How many requests may wait for a response before the codec stops reading. */
    public int maxPendingRequests() {
        return maxPendingRequests;
    }

    /**
     * Sets how long a graceful close (see "Closing" above) waits for the client to close its side before closing
     * anyway. Call it before the channel becomes active.
     *
     * @return this codec
     * @throws IllegalArgumentException if negative
     */
    public HttpServerCodec setLingerTimeoutMillis(long lingerTimeoutMillis) {
        if (lingerTimeoutMillis < 0) {
            throw new IllegalArgumentException("lingerTimeoutMillis: " + lingerTimeoutMillis + " (expected: >= 0)");
        }
        this.lingerTimeoutMillis = lingerTimeoutMillis;
        return this;
    }

    /** How long a graceful close waits for the client, in milliseconds. */
    public long lingerTimeoutMillis() {
        return lingerTimeoutMillis;
    }

    /**
     * Sets how many bytes a graceful close reads and drops before closing anyway. Call it before the channel
     * becomes active.
     *
     * @return this codec
     * @throws IllegalArgumentException if negative
     */
    public HttpServerCodec setLingerMaxBytes(long lingerMaxBytes) {
        if (lingerMaxBytes < 0) {
            throw new IllegalArgumentException("lingerMaxBytes: " + lingerMaxBytes + " (expected: >= 0)");
        }
        this.lingerMaxBytes = lingerMaxBytes;
        return this;
    }

    /** How many bytes a graceful close drops at most. */
    public long lingerMaxBytes() {
        return lingerMaxBytes;
    }

    /**
     * The status a server answers a request rejected with {@code cause} with: see the class documentation.
     *
     * @param cause the cause of a failed {@link io.weir.handler.codec.DecoderResult}
     */
    public static int statusFor(Throwable cause) {
        if (cause instanceof InvalidHttpMessageException e) {
            return e.violation().statusCode();
        }
        if (cause instanceof TooLongHttpLineException) {
            return 414;
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return 431;
        }
        if (cause instanceof TooLongHttpContentException) {
            return 413;
        }
        return 400;
    }

    // ---------------------------------------------------------------- inbound: the decoder

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (clock != null && ctx.channel().isActive() && ctx.channel().isRegistered()) {
            clock.start(ctx);
        }
    }

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) throws Exception {
        if (clock != null && ctx.channel().isActive()) {
            clock.start(ctx);
        }
        ctx.fireChannelRegistered();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        if (clock != null) {
            clock.start(ctx);
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (lingering) {
            discardWhileLingering(msg);
            return;
        }
        boolean readClock = clock != null && msg instanceof ByteBuf buf && buf.isReadable();
        if (readClock) {
            // Until readEnded below, the clocks take this read's time for now (one clock read per read).
            clock.readStarted();
            clock.bytesArrived();
        }
        try {
            decodingRead = true;
            decoder.channelRead(ctx, msg);
        } finally {
            decodingRead = false;
            try {
                passOnResponseBatch(ctx);
                if (clock != null && decoder.inputMayFollow()) {
                    // Part of the next request came in the same read as the end of the last one: its head clock
                    // starts now (or once the responses owed are written), not at its next read.
                    clock.bytesArrived();
                }
            } finally {
                if (readClock) {
                    clock.readEnded();
                }
            }
            if (methods.size() >= maxPendingRequests) {
                // The application is not keeping up with a pipelining client: stop taking more of its input.
                pause(PAUSED_FOR_REQUESTS);
            }
            if (!ctx.channel().isWritable()) {
                // The client is not reading what it asked for: neither decode nor read more until it does.
                pause(PAUSED_FOR_WRITABILITY);
            }
            if (rejected && !rejectionAnswered) {
                if (rejectionInBody) {
                    resolveBodyRejection();
                }
                answerRejectionWhenDue(ctx);
            }
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if ((pausedFor & PAUSED_FOR_WRITABILITY) != 0 || lingering) {
            // Not the decoder's: it would ask for another read when it kept a partial message, and the bytes would
            // pile up undecoded while the client does not read.
            ctx.fireChannelReadComplete();
            return;
        }
        decoder.channelReadComplete(ctx);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if ((pausedFor & PAUSED_FOR_WRITABILITY) != 0 && !resumeScheduled && ctx.channel().isWritable()) {
            // Later, not now: this may run inside a flush, in the middle of another handler's call.
            resumeScheduled = true;
            ctx.executor().execute(resumeTask);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseResponseBatch();
        if (clock != null) {
            clock.stop();
        }
        if (lingering) {
            closeAfterLinger();
        }
        decoder.channelInactive(ctx);
    }

    @Override
    public void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) throws Exception {
        if (lingering) {
            if (event instanceof ChannelInputShutdownEvent) {
                // The client closed its side: it has seen the answer, nothing more will come.
                closeAfterLinger();
            }
            ctx.fireChannelShutdown(event);
            return;
        }
        if (event instanceof ChannelInputShutdownEvent && (pausedFor & PAUSED_FOR_WRITABILITY) != 0
                && decoder.hasBufferedInput()) {
            // The requests the client sent before its end of input still wait to be decoded: keep the end for after.
            deferredInputShutdown = event;
            return;
        }
        decoder.channelShutdown(ctx, event);
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if ((pausedFor & PAUSED_FOR_WRITABILITY) != 0 && !lingering) {
            readRequested = true;
            return;
        }
        ctx.read();
    }

    // ---------------------------------------------------------------- backpressure

    private void pause(int reason) {
        if ((pausedFor & reason) != 0) {
            return;
        }
        pausedFor |= reason;
        ChannelConfig config = ctx.channel().config();
        if (!autoReadTurnedOff && config.isAutoRead()) {
            autoReadTurnedOff = true;
            config.setAutoRead(false);
        }
    }

    private void unpause(int reason) {
        pausedFor &= ~reason;
        if (pausedFor == 0 && autoReadTurnedOff) {
            autoReadTurnedOff = false;
            ctx.channel().config().setAutoRead(true);
        }
    }

    /** Runs on the event loop after the channel became writable: decodes what was kept, then reads on. */
    private void resumeAfterWritable() {
        resumeScheduled = false;
        ChannelHandlerContext ctx = this.ctx;
        Channel ch = ctx.channel();
        if ((pausedFor & PAUSED_FOR_WRITABILITY) == 0 || lingering || !ch.isActive() || !ch.isWritable()) {
            // Nothing to resume, or unwritable again: the next change of writability will call this again.
            return;
        }
        pausedFor &= ~PAUSED_FOR_WRITABILITY;
        try {
            if (decoder.hasBufferedInput()) {
                channelRead(ctx, Unpooled.EMPTY_BUFFER);
                channelReadComplete(ctx);
            }
            if ((pausedFor & PAUSED_FOR_WRITABILITY) != 0) {
                return;
            }
            ChannelShutdownEvent deferred = deferredInputShutdown;
            if (deferred != null) {
                deferredInputShutdown = null;
                decoder.channelShutdown(ctx, deferred);
            }
            unpause(0);
            if (readRequested) {
                readRequested = false;
                ctx.read();
            }
        } catch (Throwable t) {
            ctx.fireExceptionCaught(t);
        }
    }

    // ---------------------------------------------------------------- graceful close

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
        // Written, though not flushed, before the close: it goes wherever the earlier unflushed writes go.
        passOnResponseBatch(ctx);
        if (clock != null) {
            // Whoever closes: no clock runs and no timeout is answered while the close is under way.
            clock.closing();
        }
        Channel ch = ctx.channel();
        if (lingering || lingerTimeoutMillis == 0 || !(ch instanceof DuplexChannel duplex) || !ch.isActive()
                || duplex.isOutputShutdown() || duplex.isInputShutdown() || !decoder.inputMayFollow()) {
            ctx.close(promise);
            return;
        }
        // RFC 9112 §9.6: a server closing while the client may still send closes in stages, so that the unread
        // bytes do not make the kernel reset the connection under a response the client has not read yet.
        lingering = true;
        lingerPromise = promise;
        lingerBytes = 0;
        deferredInputShutdown = null;
        pausedFor = 0;
        autoReadTurnedOff = false;
        lingerTimer = ctx.executor().schedule(this::closeAfterLinger, lingerTimeoutMillis, TimeUnit.MILLISECONDS);
        ctx.channel().config().setAutoRead(true);
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> {
            if (f.isSuccess() && lingerPromise != null) {
                ctx.shutdown(ChannelShutdownDirection.OUTBOUND, ctx.newPromise())
                        .addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
            } else {
                closeAfterLinger();
            }
        });
    }

    private void discardWhileLingering(Object msg) {
        if (msg instanceof ByteBuf buf) {
            lingerBytes += buf.readableBytes();
        }
        ReferenceCountUtil.release(msg);
        if (lingerBytes > lingerMaxBytes) {
            closeAfterLinger();
        }
    }

    private void closeAfterLinger() {
        ChannelPromise promise = lingerPromise;
        if (promise == null) {
            return;
        }
        lingerPromise = null;
        ScheduledFuture<?> timer = lingerTimer;
        if (timer != null) {
            lingerTimer = null;
            timer.cancel(false);
        }
        ctx.close(promise);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        passOnResponseBatch(ctx);
        if (clock != null) {
            clock.stop();
        }
        decoder.handlerRemoved(ctx);
    }

    // ---------------------------------------------------------------- outbound: the encoder

    @Override
    public void flush(ChannelHandlerContext ctx) throws Exception {
        passOnResponseBatch(ctx);
        ctx.flush();
    }

    /** Passes the batched responses on, so that whatever is written next comes after them. */
    private void passOnResponseBatch(ChannelHandlerContext ctx) {
        ByteBuf batch = responseBatch;
        if (batch != null) {
            responseBatch = null;
            ctx.write(batch, ctx.voidPromise());
        }
    }

    /**
     * Encodes {@code res} into the response batch if it is small, whole and written with a void promise (nobody
     * waits for this write alone).
     *
     * @return false, having done nothing, otherwise
     */
    private boolean batchResponse(ChannelHandlerContext ctx, FullHttpResponse res, ChannelPromise promise)
            throws Exception {
        if (!decodingRead || !promise.isVoid()
                || res.content().readableBytes() > HttpObjectEncoder.COPY_CONTENT_THRESHOLD_BYTES) {
            return false;
        }
        ByteBuf batch = responseBatch;
        if (batch == null) {
            batch = ctx.alloc().buffer(RESPONSE_BATCH_BYTES);
            responseBatch = batch;
        }
        if (!encoder.encodeWholeInto(ctx, res, batch)) {
            return false;
        }
        int batched = batch.readableBytes();
        if (batched >= RESPONSE_BATCH_BYTES || batched >= ctx.channel().bytesBeforeUnwritable()) {
            // Full, or enough to take the channel past its high-water mark: counted from now on, so the decoder
            // stops at the next request and the held bytes never add to what the high-water mark lets queue.
            passOnResponseBatch(ctx);
        }
        return true;
    }

    private void releaseResponseBatch() {
        ByteBuf batch = responseBatch;
        if (batch != null) {
            responseBatch = null;
            batch.release();
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        // One type check for the usual whole response rather than one per interface (see HttpObjectEncoder.encode).
        FullHttpResponse full = msg instanceof FullHttpResponse f ? f : null;
        HttpResponse res = full != null ? full : msg instanceof HttpResponse r ? r : null;
        if (res != null) {
            int code = res.status().code();
            if (metrics != null) {
                metrics.response(code);
            }
            if (code >= 200 || code == 101) {
                // A final response: it answers the oldest request without one (interim 1xx answer nothing).
                respondingTo = methods.poll();
                responseInProgress = true;
                if ((pausedFor & PAUSED_FOR_REQUESTS) != 0 && methods.size() <= maxPendingRequests / 2) {
                    unpause(PAUSED_FOR_REQUESTS);
                }
                if (managesKeepAlive) {
                    responseHeadWritten(res, code);
                }
            }
        }
        boolean completes = responseInProgress && (full != null || msg instanceof LastHttpContent);
        boolean closeAfter = completes && managesKeepAlive && !switchingProtocols
                && responsesDone + 1 >= keepAliveUntil;
        if (closeAfter) {
            promise = promise.unvoid();
        }
        if (!(completes && full != null && batchResponse(ctx, full, promise))) {
            passOnResponseBatch(ctx);
            encoder.write(ctx, msg, promise);
        }
        if (completes) {
            responseInProgress = false;
            respondingTo = null;
            responsesDone++;
            if (clock != null) {
                clock.responseWritten();
            }
            if (closeAfter) {
                // Through the whole pipeline, so the close reaches this codec's graceful close too.
                promise.addListener(ChannelFutureListener.CLOSE);
            }
            if (rejected && !rejectionAnswered) {
                answerRejectionWhenDue(ctx);
            }
        }
    }

    // ---------------------------------------------------------------- the exchange: persistence

    /** A request was passed on (counted): does the connection persist after its response? RFC 9112 §9.3. */
    private void requestPassed(HttpRequest req) {
        if (keepAliveUntil == Long.MAX_VALUE) {
            boolean persists = HttpKeepAlive.requestPersists(req);
            http10KeepAlive = HttpKeepAlive.isHttp10KeepAlive(req, persists);
            if (!persists) {
                // Requests pipelined after this one are not answered: the connection closes after its response.
                keepAliveUntil = requestsPassed;
            }
        }
    }

    /** The head of final response number {@code responsesDone + 1}: marks whether the connection persists after it. */
    private void responseHeadWritten(HttpResponse res, int code) {
        if (code == 101) {
            // RFC 9110 §15.2.2: after this response the connection speaks another protocol, with its own timeouts.
            switchingProtocols = true;
            if (clock != null) {
                clock.stop();
            }
            return;
        }
        switchingProtocols = false;
        long number = responsesDone + 1;
        if (!HttpKeepAlive.responsePersists(res, http10KeepAlive) || !HttpKeepAlive.hasSelfDefinedLength(res)) {
            // The client cannot reuse the connection after this response: it is the last.
            keepAliveUntil = Math.min(keepAliveUntil, number);
        }
        if (number >= keepAliveUntil) {
            HttpUtil.setKeepAlive(res.headers(), HttpVersion.HTTP_1_1, false);
        } else if (http10KeepAlive) {
            res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
    }

    /**
     * A {@link ChannelDrainEvent} (the server is draining), with a policy: no new request on this connection, so it
     * closes at once when idle, or after the response owed.
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (managesKeepAlive && evt instanceof ChannelDrainEvent) {
            keepAliveUntil = Math.min(keepAliveUntil, Math.max(requestsPassed, responsesDone + 1));
            if (responsesDone >= requestsPassed && !responseInProgress) {
                ctx.channel().close();
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    /** The codec's counts for its timeout clock, and the clock's actions. */
    private final class Exchange implements HttpServerTimeoutClock.Exchange {
        @Override
        public long requestsReceived() {
            return requestsPassed;
        }

        @Override
        public long responsesWritten() {
            return responsesDone;
        }

        @Override
        public boolean canAnswerCurrentRequest() {
            return !responseInProgress && responsesDone == requestsPassed - 1;
        }

        @Override
        public void answerRequestTimeout() throws Exception {
            // RFC 9110 §15.5.9. The close follows at once: from now on input is discarded, not decoded, and the
            // graceful close flushes the 408 before it shuts the output down.
            rejected = true;
            rejectionAnswered = true;
            if (metrics != null) {
                metrics.response(HttpResponseStatus.REQUEST_TIMEOUT.code());
            }
            respondingTo = null;
            passOnResponseBatch(ctx);
            encoder.write(ctx, HttpServerTimeoutClock.requestTimeout(), ctx.newPromise());
            ctx.flush();
            ctx.channel().close();
        }

        @Override
        public void closeForTimeout() {
            ctx.channel().close();
        }
    }

    // ---------------------------------------------------------------- out of memory

    /**
     * A buffer could not be allocated while decoding (direct memory or the pool ran out): the input read so far
     * cannot be trusted to be whole, so this connection ends, answered {@code 503 Service Unavailable} with
     * {@code Connection: close} when no response is under way (RFC 9110 §15.6.4), closed otherwise. Other
     * connections are not touched; the first failure in the JVM is logged at WARNING, later ones at DEBUG.
     * Anything else is passed on.
     */
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        if (!(cause instanceof OutOfMemoryError) || lingering) {
            ctx.fireExceptionCaught(cause);
            return;
        }
        try {
            boolean first = OUT_OF_MEMORY_LOGGED.compareAndSet(false, true);
            LOGGER.log(first ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG, "closing " + ctx.channel()
                    + ": a buffer could not be allocated" + (first ? " (logged once)" : ""), cause);
        } catch (Throwable ignored) {
            // a logger short of memory too: the close matters more
        }
        pause(PAUSED_FOR_WRITABILITY);
        if (!ctx.channel().isActive() || responseInProgress || rejectionAnswered) {
            ctx.close();
            return;
        }
        rejected = true;
        rejectionAnswered = true;
        try {
            answerAndClose(ctx, HttpResponseStatus.SERVICE_UNAVAILABLE);
        } catch (OutOfMemoryError again) {
            ctx.close();
        }
    }

    // ---------------------------------------------------------------- rejections

    private void rejected(Throwable cause, boolean inBody) {
        if (rejected) {
            return;
        }
        rejected = true;
        rejectionInBody = inBody;
        rejectionStatus = statusFor(cause);
        rejectionAfter = requestsPassed;
        LOGGER.log(System.Logger.Level.DEBUG, "rejected an HTTP request, answering {0}: {1}", rejectionStatus,
                cause);
    }

    /** Runs once the failed last content has been through the pipeline: did a handler begin the answer? */
    private void resolveBodyRejection() {
        rejectionInBody = false;
        long begun = responsesDone + (responseInProgress ? 1 : 0);
        if (begun >= requestsPassed) {
            rejectionStatus = CLOSE_WITHOUT_ANSWER;
        } else {
            // Nobody answered the request whose body failed: the codec's answer takes its place.
            rejectionAfter = requestsPassed - 1;
        }
    }

    private void answerRejectionWhenDue(ChannelHandlerContext ctx) throws Exception {
        if (rejectionInBody || responseInProgress || responsesDone < rejectionAfter) {
            return;
        }
        rejectionAnswered = true;
        if (!ctx.channel().isActive()) {
            return;
        }
        if (rejectionStatus == CLOSE_WITHOUT_ANSWER) {
            // Behind the response just written, which may not be flushed yet: close once it is out.
            passOnResponseBatch(ctx);
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        answerAndClose(ctx, HttpResponseStatus.valueOf(rejectionStatus));
    }

    /**
     * Writes the codec's own answer, {@code status} with {@code Connection: close} and no content, and closes once
     * it is written, whether or not the write succeeds: the connection's input cannot be trusted any more.
     */
    private void answerAndClose(ChannelHandlerContext ctx, HttpResponseStatus status) throws Exception {
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER);
        res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                .set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO);
        ChannelPromise promise = ctx.newPromise();
        promise.addListener(ChannelFutureListener.CLOSE);
        respondingTo = null;
        passOnResponseBatch(ctx);
        encoder.write(ctx, res, promise);
        ctx.flush();
    }

    private final class RequestDecoder extends HttpRequestDecoder {
        RequestDecoder(HttpDecoderConfig config) {
            super(config);
        }

        @Override
        boolean pauseBeforeNextObject() {
            if ((pausedFor & PAUSED_FOR_WRITABILITY) != 0 || lingering) {
                return true;
            }
            if (!ctx.channel().isWritable()) {
                pause(PAUSED_FOR_WRITABILITY);
                return true;
            }
            return false;
        }

        @Override
        void decoded(List<Object> out, int from) {
            for (int i = from; i < out.size(); i++) {
                Object o = out.get(i);
                if (o == LastHttpContent.EMPTY_LAST_CONTENT) {
                    // The end of every request without a body: known by identity, without the interface checks below
                    // (each one that succeeds on a class's other interface rewrites that class's shared type-check
                    // cache in the JVM, which event loops on other cores then miss).
                    if (clock != null) {
                        clock.contentReceived(0, true);
                    }
                    continue;
                }
                if (o instanceof HttpRequest req) {
                    if (req.decoderResult().isFailure()) {
                        out.remove(i--);
                        ReferenceCountUtil.release(req);
                        rejected(req.decoderResult().cause(), false);
                    } else {
                        requestsPassed++;
                        methods.add(req.method());
                        if (managesKeepAlive) {
                            requestPassed(req);
                            if (clock != null) {
                                clock.requestReceived();
                            }
                        }
                    }
                } else if (o instanceof HttpContent content) {
                    if (clock != null) {
                        clock.contentReceived(content.content().readableBytes(), o instanceof LastHttpContent);
                    }
                    if (o instanceof LastHttpContent last && last.decoderResult().isFailure()) {
                        rejected(last.decoderResult().cause(), true);
                    }
                }
            }
        }
    }

    private final class ResponseEncoder extends HttpResponseEncoder {
        @Override
        protected HttpMethod pollRequestMethod() {
            // write() already took the method off the queue, to pair the response with its request.
            return respondingTo;
        }
    }
}
