package io.weir.handler.codec.http;

import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.channel.ChannelShutdownEvent;
import io.weir.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The server side of HTTP/1.1 in one handler: an {@link HttpRequestDecoder} for what arrives and an
 * {@link HttpResponseEncoder} for what the application writes, paired so that a response to HEAD carries no body,
 * and a guard that answers rejected requests itself.
 *
 * <pre>{@code
 * ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new MyHandler());
 * }</pre>
 *
 * <h2>Rejected requests</h2>
 * When the decoder rejects a request (see {@link HttpObjectDecoder}), the codec answers it with the matching
 * status and {@code Connection: close}, then closes the connection: 400 for a malformed request
 * ({@link InvalidHttpMessageException}, whose {@link HttpViolation#statusCode()} also yields 501 for an unknown
 * transfer coding and 505 for an unsupported version), 413 for {@link TooLongHttpContentException}, 414 for
 * {@link TooLongHttpLineException} and 431 for {@link TooLongHttpHeaderException}. Bytes after the rejection are
 * discarded unread.
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
 * <h2>Pipelining</h2>
 * Pipelined requests are decoded and passed on one after another; the application must write the responses in
 * request order (as any handler that answers synchronously does), and the codec pairs each response with the
 * method of the request it answers in that order. A client cannot make the server queue requests without bound:
 * once {@linkplain #setMaxPendingRequests(int) the limit} of requests passed on without a response begun is
 * reached, the codec turns the channel's auto-read off (what one read already brought is still decoded) and
 * turns it back on when the application has begun answering half of them.
 *
 * <h2>Threads and ownership</h2>
 * Called only on the channel's event loop. Keeps per-connection state: one instance per channel.
 */
public final class HttpServerCodec implements ChannelHandler {
    private static final System.Logger LOGGER = System.getLogger(HttpServerCodec.class.getName());
    private static final int CLOSE_WITHOUT_ANSWER = -1;
    /** Default of {@link #setMaxPendingRequests(int)}. */
    public static final int DEFAULT_MAX_PENDING_REQUESTS = 128;

    private final RequestDecoder decoder;
    private final ResponseEncoder encoder = new ResponseEncoder();
    /** Methods of the requests passed on whose responses have not begun, oldest first. */
    private final ArrayDeque<HttpMethod> methods = new ArrayDeque<>();
    private HttpMethod respondingTo;
    private long requestsPassed;
    private long responsesDone;
    private boolean responseInProgress;
    private int maxPendingRequests = DEFAULT_MAX_PENDING_REQUESTS;
    /** Whether this codec turned auto-read off because too many requests wait for a response. */
    private boolean readingPaused;

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
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        try {
            decoder.channelRead(ctx, msg);
        } finally {
            if (!readingPaused && methods.size() >= maxPendingRequests && ctx.channel().config().isAutoRead()) {
                // The application is not keeping up with a pipelining client: stop taking more of its input.
                readingPaused = true;
                ctx.channel().config().setAutoRead(false);
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
        decoder.channelReadComplete(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        decoder.channelInactive(ctx);
    }

    @Override
    public void channelShutdown(ChannelHandlerContext ctx, ChannelShutdownEvent event) throws Exception {
        decoder.channelShutdown(ctx, event);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        decoder.handlerRemoved(ctx);
    }

    // ---------------------------------------------------------------- outbound: the encoder

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof HttpResponse res) {
            int code = res.status().code();
            if (code >= 200 || code == 101) {
                // A final response: it answers the oldest request without one (interim 1xx answer nothing).
                respondingTo = methods.poll();
                responseInProgress = true;
                if (readingPaused && methods.size() <= maxPendingRequests / 2) {
                    readingPaused = false;
                    ctx.channel().config().setAutoRead(true);
                }
            }
        }
        boolean completes = responseInProgress && msg instanceof LastHttpContent;
        encoder.write(ctx, msg, promise);
        if (completes) {
            responseInProgress = false;
            respondingTo = null;
            responsesDone++;
            if (rejected && !rejectionAnswered) {
                answerRejectionWhenDue(ctx);
            }
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
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            return;
        }
        FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(rejectionStatus), Unpooled.EMPTY_BUFFER);
        res.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
                .set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO);
        ChannelPromise promise = ctx.newPromise();
        // Closed whether or not the write succeeds: the connection's input cannot be trusted any more.
        promise.addListener(ChannelFutureListener.CLOSE);
        respondingTo = null;
        encoder.write(ctx, res, promise);
        ctx.flush();
    }

    private final class RequestDecoder extends HttpRequestDecoder {
        RequestDecoder(HttpDecoderConfig config) {
            super(config);
        }

        @Override
        void decoded(List<Object> out, int from) {
            for (int i = from; i < out.size(); i++) {
                Object o = out.get(i);
                if (o instanceof HttpRequest req) {
                    if (req.decoderResult().isFailure()) {
                        out.remove(i--);
                        ReferenceCountUtil.release(req);
                        rejected(req.decoderResult().cause(), false);
                    } else {
                        requestsPassed++;
                        methods.add(req.method());
                    }
                } else if (o instanceof LastHttpContent last && last.decoderResult().isFailure()) {
                    rejected(last.decoderResult().cause(), true);
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
