package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.metrics.HttpMetrics;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.Ticker;
import java.util.Objects;

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
 * <p>The recommended way to get these timeouts is {@link HttpServerCodec#HttpServerCodec(HttpServerPolicy)}: the
 * codec applies them itself, with keep-alive, from its own request and response counts, and there is no handler to
 * place. This handler stays for pipelines built around a bare {@link HttpRequestDecoder} and for existing code.
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
    private final ChannelFutureListener closeWhenWritten = this::closeWhenWritten;
    private final InputObserver inputObserver = new InputObserver();
    private final HttpServerTimeoutClock clock;

    private ChannelHandlerContext ctx;

    private long requestsReceived;
    private long responsesBegun;
    /** Final responses whose last content was written (queued) by the application. */
    private long responsesWritten;
    private boolean responseInProgress;
    /** Whether an {@link HttpServerCodec} is in the pipeline to close gracefully (rather than a bare decoder). */
    private boolean codecLingers;
    /** Where fired timeouts are counted; null when nobody asked. */
    private final HttpMetrics metrics;

    /** A handler with the {@link HttpServerTimeouts} defaults. */
    public HttpServerTimeoutHandler() {
        this(HttpServerPolicy.defaults(), null);
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
        this(HttpServerPolicy.of(timeouts), metrics);
    }

    /**
     * A handler with the timeouts of {@code policy} (head, idle, body rate, write), counting into {@code metrics}
     * (null: nothing) as {@link #HttpServerTimeoutHandler(HttpServerTimeouts, HttpMetrics)} does. Prefer
     * {@link HttpServerCodec#HttpServerCodec(HttpServerPolicy)}, which applies the same timeouts with no handler to
     * place.
     *
     * @throws NullPointerException if {@code policy} is null
     */
    public HttpServerTimeoutHandler(HttpServerPolicy policy, HttpMetrics metrics) {
        Objects.requireNonNull(policy, "policy");
        this.metrics = metrics;
        this.clock = new HttpServerTimeoutClock(policy, metrics, new Exchange());
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
            clock.start(ctx);
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        clock.stop();
        if (ctx.pipeline().context(inputObserver) != null) {
            ctx.pipeline().remove(inputObserver);
        }
    }

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) throws Exception {
        if (ctx.channel().isActive()) {
            clock.start(ctx);
        }
        ctx.fireChannelRegistered();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        clock.start(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        clock.stop();
        ctx.fireChannelInactive();
    }

    // ---------------------------------------------------------------- inbound

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (clock.isClosing()) {
            // Closing: nothing more of this connection reaches the application. Behind HttpServerCodec nothing
            // arrives here (it discards input while it lingers); behind a bare decoder, what arrives before the
            // close completes is dropped here.
            ReferenceCountUtil.release(msg);
            return;
        }
        if (clock.isRunning()) {
            if (msg instanceof HttpRequest) {
                requestsReceived++;
                clock.requestReceived();
            }
            if (msg instanceof HttpContent content) {
                clock.contentReceived(content.content().readableBytes(), msg instanceof LastHttpContent);
            }
        }
        ctx.fireChannelRead(msg);
    }

    // ---------------------------------------------------------------- outbound

    /**
     * A close on its way to the codec, from this handler or from any handler or caller after it: the handler stands
     * down before the codec begins its graceful close, so that no clock runs and nothing is answered while the
     * codec lingers.
     */
    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
        clock.closing();
        ctx.close(promise);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (metrics != null && msg instanceof HttpResponse counted) {
            metrics.response(counted.status().code());
        }
        if (!clock.isRunning()) {
            ctx.write(msg, promise);
            return;
        }
        if (msg instanceof HttpResponse response) {
            int code = response.status().code();
            if (code == 101) {
                // RFC 9110 §15.2.2: after this response the connection speaks another protocol.
                clock.stop();
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
            // No listener on the promise: it may be the void one, and a new promise per response would allocate.
            clock.responseWritten();
        }
        ctx.write(msg, promise);
    }

    // ---------------------------------------------------------------- 408

    /**
     * RFC 9110 §15.5.9: 408 with {@code Connection: close}, then the close; the rest of the request is never read.
     * Behind {@link HttpServerCodec} the close follows the write at once: the codec then discards input from this
     * moment on, flushes the 408 before it shuts the output down, and lingers. Behind a bare decoder the close waits
     * for the write, so that it does not fail the 408 still queued; nothing lingers.
     */
    private void answer408() {
        if (metrics != null) {
            // Written from here, it does not pass through this handler's write.
            metrics.response(HttpResponseStatus.REQUEST_TIMEOUT.code());
        }
        ChannelFuture written = ctx.writeAndFlush(HttpServerTimeoutClock.requestTimeout());
        if (codecLingers) {
            ctx.close();
        } else {
            written.addListener(closeWhenWritten);
        }
    }

    private void closeWhenWritten(ChannelFuture written) {
        ctx.close();
    }

    /** The counts this handler keeps for its clock, and the clock's actions through this handler's context. */
    private final class Exchange implements HttpServerTimeoutClock.Exchange {
        @Override
        public long requestsReceived() {
            return requestsReceived;
        }

        @Override
        public long responsesWritten() {
            return responsesWritten;
        }

        @Override
        public boolean canAnswerCurrentRequest() {
            return !responseInProgress && responsesBegun == requestsReceived - 1;
        }

        @Override
        public void answerRequestTimeout() {
            answer408();
        }

        @Override
        public void closeForTimeout() {
            ctx.close();
        }
    }

    /** Before the codec: reports each read that brings bytes; passes every buffer on unchanged. */
    private final class InputObserver implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext observerCtx, Object msg) throws Exception {
            if (msg instanceof ByteBuf buf && buf.isReadable()) {
                clock.bytesArrived();
            }
            observerCtx.fireChannelRead(msg);
        }
    }
}
