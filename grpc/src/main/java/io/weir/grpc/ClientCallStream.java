package io.weir.grpc;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Compressor;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Decompressor;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.EventLoop;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2ResetFrame;
import io.weir.handler.codec.http2.Http2StreamChannel;
import io.weir.handler.codec.http2.Http2StreamChannelBootstrap;
import io.weir.util.AsciiString;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One call of a {@link WeirGrpcChannel}: the {@link ClientCall} a stub drives, and the handler of its HTTP/2
 * stream's child channel.
 *
 * <p><b>Threads.</b> The caller uses the {@code ClientCall} methods from its thread (one at a time, as grpc-java
 * requires): they serialize there and hand the bytes to the connection's event loop, where the stream is written
 * and read. The listener's callbacks run on the call's executor, one at a time and in order ({@link CallEventQueue}).
 *
 * <p><b>Flow control.</b> The response is read only while no received message waits for {@link #request}: a slow
 * listener leaves the server's DATA unacknowledged and the server stops at the window. {@link #isReady()} follows
 * the stream's writability. An OK status is delivered after the messages before it were asked for; another status
 * at once, dropping them.
 *
 * <p><b>Frames.</b> The last request message written is held back until the stream is flushed, so a half-close
 * right after it (a unary call, or the last message of a client stream, sent from a listener on the event loop) ends
 * the stream on that message's DATA frame rather than on an empty one of its own: a unary call costs HEADERS and one
 * DATA frame, as grpc-java's.
 *
 * <p><b>Transparent retry.</b> A stream the server refuses (RST_STREAM REFUSED_STREAM, RFC 9113 §8.7: nothing of it
 * was processed) before any response is opened again once, as a new stream (on a new connection after a GOAWAY),
 * with the request bytes sent so far; they are kept for that until the response starts, up to
 * {@value #MAX_REPLAY_BYTES} octets (beyond that the call is not retried). The handler is marked sharable because
 * the retry's stream adds it while the refused one is still closing; events of the refused stream are ignored.
 */
@ChannelHandler.Sharable
final class ClientCallStream<ReqT, RespT> extends ClientCall<ReqT, RespT>
        implements ChannelHandler {
    /** Request octets kept for a transparent retry of a refused stream. */
    static final int MAX_REPLAY_BYTES = 1 << 20;
    private static final AsciiString TE = AsciiString.cached("te");
    private static final AsciiString TRAILERS = AsciiString.cached("trailers");
    private static final AsciiString USER_AGENT = AsciiString.cached("user-agent");
    private static final AsciiString WEIR_GRPC = AsciiString.cached("weir-grpc");
    private static final AsciiString POST = AsciiString.cached("POST");
    private static final AsciiString STATUS_200 = AsciiString.cached("200");
    private static final Object READY = new Object();

    /** The call's end, as the listener hears it. */
    private record Closed(Status status, Metadata trailers) {
    }

    private final WeirGrpcChannel channel;
    private final MethodDescriptor<ReqT, RespT> method;
    private final CallOptions options;
    private final EventLoop loop;
    private final CallEventQueue events;
    private final AtomicLong bytesInFlight = new AtomicLong();

    // ---- the caller's thread
    private boolean started;
    private boolean halfClosed;
    private Compressor compressor;
    private boolean messageCompression = true;
    private Context context;
    private Deadline deadline;
    private final Context.CancellationListener contextCancelled = this::contextCancelled;

    // ---- event loop only
    private WeirGrpcChannel.Connection connection;
    private ChannelHandlerContext ctx;
    private Http2Headers requestHeaders;
    private final ArrayDeque<ByteBuf> unsent = new ArrayDeque<>(2);
    private boolean halfClosePending;
    private boolean done;
    private boolean responseHeadersSeen;
    private Decompressor decompressor;
    private final ReceivedMessages received;
    private Closed pendingClose;
    private ScheduledFuture<?> deadlineTimer;
    private boolean inRead;
    private boolean flushPending;
    /** This call waits in one of its connection's flush queues, which flushes it when drained. */
    private boolean flushQueued;
    private final Runnable flushTask = this::flushIfPending;
    /** The last request message, written when the stream is flushed or with END_STREAM at the half-close. */
    private ByteBuf held;
    /** Copies of the request bytes written, for a retry of a refused stream; null once it can no longer happen. */
    private ArrayDeque<ByteBuf> replay = new ArrayDeque<>(2);
    private int replayBytes;
    private boolean halfCloseSent;

    // ---- the listener's thread
    private Listener<RespT> listener;
    private Status failure;

    private volatile Http2StreamChannel stream;

    ClientCallStream(WeirGrpcChannel channel, MethodDescriptor<ReqT, RespT> method, CallOptions options) {
        this.channel = channel;
        this.method = method;
        this.options = options;
        this.loop = channel.loop();
        this.received = new ReceivedMessages(loop, this::deliver);
        this.events = new CallEventQueue(options.getExecutor() != null ? options.getExecutor() : channel.executor(),
                this::handle);
    }

    // ================================================================ ClientCall (the caller's thread)

    @Override
    public void start(Listener<RespT> responseListener, Metadata headers) {
        if (started) {
            throw new IllegalStateException("already started");
        }
        started = true;
        listener = java.util.Objects.requireNonNull(responseListener, "responseListener");
        context = Context.current();
        deadline = earlier(options.getDeadline(), context.getDeadline());
        Http2Headers h = new Http2Headers(12, true).method(POST).scheme(channel.scheme())
                .path(channel.path(method))
                .authority(options.getAuthority() != null ? options.getAuthority() : channel.authority());
        h.add(GrpcHeaderNames.CONTENT_TYPE, GrpcHeaderNames.APPLICATION_GRPC);
        h.add(TE, TRAILERS);
        h.add(USER_AGENT, WEIR_GRPC);
        if (!channel.acceptEncoding().isEmpty()) {
            h.add(GrpcHeaderNames.GRPC_ACCEPT_ENCODING, channel.acceptEncoding());
        }
        String compressorName = options.getCompressor();
        Status failed = null;
        if (compressorName != null && !compressorName.equals("identity")) {
            compressor = channel.compressors().lookupCompressor(compressorName);
            if (compressor == null) {
                failed = Status.INTERNAL.withDescription("no compressor named " + compressorName);
            } else {
                h.add(GrpcHeaderNames.GRPC_ENCODING, compressorName);
            }
        }
        long timeoutNanos = Long.MAX_VALUE;
        if (deadline != null) {
            timeoutNanos = Math.max(0, deadline.timeRemaining(TimeUnit.NANOSECONDS));
            h.add(GrpcHeaderNames.GRPC_TIMEOUT, GrpcTimeout.format(timeoutNanos));
        }
        try {
            GrpcMetadataCodec.addTo(headers, h);
        } catch (IllegalArgumentException e) {
            failed = Status.INTERNAL.withDescription("headers HTTP/2 cannot carry: " + e.getMessage());
        }
        Status startFailure = failed;
        long nanos = timeoutNanos;
        if (startFailure == null) {
            // The caller's context ends the call when it is cancelled (grpc-java's rule).
            context.addListener(contextCancelled, Runnable::run);
        }
        Runnable task = () -> startOnLoop(h, nanos, startFailure);
        if (loop.inEventLoop()) {
            task.run();
        } else if (!onLoop(task)) {
            // The channel's own event loop ended with it: the call ends here, its listener told on this thread
            // (or its executor).
            finish(Status.UNAVAILABLE.withDescription("the channel is shut down"));
        }
    }

    /** Runs {@code task} on the call's event loop; false if the loop has ended (and the call with it). */
    private boolean onLoop(Runnable task) {
        return LoopTasks.tryExecute(loop, task);
    }

    private static Deadline earlier(Deadline a, Deadline b) {
        if (a == null) {
            return b;
        }
        return b == null ? a : a.minimum(b);
    }

    @Override
    public void request(int numMessages) {
        received.request(numMessages);
    }

    @Override
    public void cancel(String message, Throwable cause) {
        if (message == null && cause == null) {
            message = "cancelled by the caller";
        }
        Status status = Status.CANCELLED.withDescription(message).withCause(cause);
        if (loop.inEventLoop()) {
            finish(status);
        } else {
            onLoop(() -> finish(status));
        }
    }

    @Override
    public void halfClose() {
        if (!started || halfClosed) {
            throw new IllegalStateException(started ? "already half-closed" : "not started");
        }
        halfClosed = true;
        if (loop.inEventLoop()) {
            halfCloseOnLoop();
        } else {
            onLoop(this::halfCloseOnLoop);
        }
    }

    @Override
    public void sendMessage(ReqT message) {
        if (!started || halfClosed) {
            throw new IllegalStateException(started ? "already half-closed" : "not started");
        }
        ByteBuf framed;
        try {
            framed = GrpcMessageCodec.encode(ByteBufAllocator.DEFAULT, method.streamRequest(message),
                    messageCompression ? compressor : null, maxOutbound());
        } catch (ByteBufMessageOutputStream.MessageTooLargeException e) {
            cancel("request message larger than " + maxOutbound() + " bytes", null);
            return;
        } catch (IOException | RuntimeException e) {
            cancel("request message not serialized", e);
            return;
        }
        if (loop.inEventLoop()) {
            send(framed);
        } else {
            int size = framed.readableBytes();
            bytesInFlight.addAndGet(size);
            if (!onLoop(() -> {
                send(framed);
                bytesInFlight.addAndGet(-size);
            })) {
                framed.release();
                bytesInFlight.addAndGet(-size);
            }
        }
    }

    private int maxOutbound() {
        Integer max = options.getMaxOutboundMessageSize();
        return max == null ? Integer.MAX_VALUE : max;
    }

    @Override
    public boolean isReady() {
        Http2StreamChannel s = stream;
        return s != null && s.isWritable() && bytesInFlight.get() < ServerCallStream.DEFAULT_ON_READY_THRESHOLD_BYTES;
    }

    @Override
    public void setMessageCompression(boolean enabled) {
        messageCompression = enabled;
    }

    private void contextCancelled(Context c) {
        Throwable cause = c.cancellationCause();
        Status status = cause instanceof java.util.concurrent.TimeoutException
                ? Status.DEADLINE_EXCEEDED.withDescription("the caller's context deadline passed")
                : Status.CANCELLED.withDescription("the caller's context was cancelled").withCause(cause);
        onLoop(() -> finish(status));
    }

    // ================================================================ the stream (event loop)

    /** @param timeoutNanos the time left before the deadline; {@link Long#MAX_VALUE} for none */
    private void startOnLoop(Http2Headers headers, long timeoutNanos, Status failed) {
        if (done) {
            // Cancelled before it started: the listener, set only now, still hears the end (grpc-java's rule).
            dispatch(new Closed(Status.CANCELLED.withDescription("cancelled before the call started"),
                    new Metadata()));
            return;
        }
        if (failed != null) {
            finish(failed);
            return;
        }
        if (timeoutNanos != Long.MAX_VALUE) {
            if (timeoutNanos == 0) {
                finish(Status.DEADLINE_EXCEEDED.withDescription("deadline passed before the call started"));
                return;
            }
            deadlineTimer = loop.schedule(this::deadlineExceeded, timeoutNanos, TimeUnit.NANOSECONDS);
        }
        requestHeaders = headers;
        channel.enqueue(this);
    }

    /** Opens the call's stream on {@code c} (event loop); false if the call ended while it waited. */
    boolean open(WeirGrpcChannel.Connection c) {
        if (done) {
            return false;
        }
        connection = c;
        new Http2StreamChannelBootstrap(c.channel).handler(this).open().addListener(f -> {
            if (!f.isSuccess()) {
                c.streamReleased();
                finish(Status.UNAVAILABLE.withDescription("could not open a stream").withCause(f.cause()));
                return;
            }
            Http2StreamChannel s = (Http2StreamChannel) f.getNow();
            // The codec has retired the stream by the time its child's close is seen: the slot is free.
            s.closeFuture().addListener(closed -> c.streamReleased());
            opened(s);
        });
        return true;
    }

    private void opened(Http2StreamChannel s) {
        if (done) {
            s.close();
            return;
        }
        stream = s;
        boolean endNow = halfClosePending && unsent.isEmpty();
        s.write(new Http2HeadersFrame(s.stream(), requestHeaders, endNow)).addListener(f -> {
            if (!f.isSuccess()) {
                // The connection could not take another stream (its limit, GOAWAY, closed).
                finish(Status.UNAVAILABLE.withDescription("request headers not sent").withCause(f.cause()));
            }
        });
        ByteBuf message;
        while ((message = unsent.pollFirst()) != null) {
            remember(message);
            s.write(new Http2DataFrame(s.stream(), message, halfClosePending && unsent.isEmpty(), 0), s.voidPromise());
        }
        halfCloseSent = halfClosePending;
        flush();
        readIfWanted();
        if (s.isWritable()) {
            dispatch(READY);
        }
    }

    private void send(ByteBuf framed) {
        if (done) {
            framed.release();
        } else if (stream == null) {
            unsent.addLast(framed);
        } else {
            remember(framed);
            writeHeld();
            held = framed;
            flush();
        }
    }

    /** Writes the message held back, if any, without END_STREAM: another message or a flush comes after it. */
    private void writeHeld() {
        ByteBuf m = held;
        if (m != null) {
            held = null;
            Http2StreamChannel s = stream;
            s.write(new Http2DataFrame(s.stream(), m, false, 0), s.voidPromise());
        }
    }

    /** Keeps a copy of request bytes about to be written, while a refused stream could still be retried. */
    private void remember(ByteBuf framed) {
        if (replay == null) {
            return;
        }
        replayBytes += framed.readableBytes();
        if (replayBytes > MAX_REPLAY_BYTES) {
            dropReplay();
        } else {
            replay.addLast(framed.retainedDuplicate());
        }
    }

    private void dropReplay() {
        if (replay != null) {
            ByteBuf b;
            while ((b = replay.pollFirst()) != null) {
                b.release();
            }
            replay = null;
        }
    }

    /**
     * The server refused the stream before answering (nothing of it was processed): the call goes back in line
     * for a new stream with the request bytes sent so far; once only.
     */
    private void retryRefused() {
        ArrayDeque<ByteBuf> again = replay;
        replay = null;
        if (held != null) {
            // Its copy is the last one in the replay.
            held.release();
            held = null;
        }
        flushPending = false;
        // The refused stream's read ends without a read-complete: the new stream's flushes must not wait for it.
        inRead = false;
        stream = null;
        responseHeadersSeen = false;
        unsent.addAll(again);
        halfClosePending = halfCloseSent;
        halfCloseSent = false;
        channel.enqueue(this);
    }

    private void halfCloseOnLoop() {
        if (done) {
            return;
        }
        if (stream == null) {
            halfClosePending = true;
        } else {
            halfCloseSent = true;
            ByteBuf last = held;
            held = null;
            // RFC 9113 §8.1: END_STREAM on the last DATA frame of the request, an empty one if it went out already.
            Http2StreamChannel s = stream;
            s.write(new Http2DataFrame(s.stream(), last != null ? last : Unpooled.EMPTY_BUFFER, true, 0),
                    s.voidPromise());
            flush();
        }
    }

    /**
     * Flushes the stream once what is under way is done, so that the frames of one loop turn go out in one flush
     * and a half-close can still join the held message: at the end of this stream's read or of its listener's
     * events, at the end of another call's listener running on the loop (a stub with a direct executor starting the
     * next call), else in a task queued on the loop that flushes every call deferred so until then in one write (a
     * caller on another thread, whose half-close task is usually queued already, or a task starting many calls).
     */
    private void flush() {
        if (flushPending) {
            return;
        }
        flushPending = true;
        if (inRead || events.isDraining() || flushQueued) {
            return;
        }
        queueFlush();
    }

    /** Defers the pending flush past what runs now: to the end of a listener, to the connection's task, or a task. */
    private void queueFlush() {
        WeirGrpcChannel.Connection c = connection;
        if (c != null && (c.flushAfterListeners(this) || c.flushSoon(this))) {
            flushQueued = true;
            return;
        }
        loop.execute(flushTask);
    }

    /** The connection drains the queue this call waited in: flushes it. Event loop only. */
    void flushFromQueue() {
        flushQueued = false;
        flushIfPending();
    }

    /** Flushes what {@link #flush} deferred, unless that happened already or the call ended. Event loop only. */
    void flushIfPending() {
        if (flushPending && stream != null) {
            flushNow();
        }
    }

    private void flushNow() {
        flushPending = false;
        writeHeld();
        stream.flush();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        ctx.channel().config().setAutoRead(false);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        // After an OK end the stream may close before the listener asked for every message: those stay queued for
        // it (finish releases them if the call is cancelled instead).
        if (done) {
            releaseReceived();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (done || ctx.channel() != stream) {
            // Ended, or the refused stream of a retried call.
            ReferenceCountUtil.release(msg);
            return;
        }
        inRead = true;
        if (msg instanceof Http2HeadersFrame frame) {
            if (!responseHeadersSeen) {
                responseHeadersSeen = true;
                dropReplay();
                if (frame.endStream()) {
                    trailers(frame.headers(), true);
                } else {
                    responseHeaders(frame.headers());
                }
            } else if (frame.endStream()) {
                trailers(frame.headers(), false);
            }
        } else if (msg instanceof Http2DataFrame data) {
            boolean end = data.endStream();
            if (!responseHeadersSeen) {
                data.release();
                finish(Status.INTERNAL.withDescription("DATA before the response headers"));
                return;
            }
            Status refused = received.read(data.content());
            if (refused != null) {
                finish(refused);
                return;
            }
            if (end) {
                finish(Status.INTERNAL.withDescription("the response ended without trailers"));
                return;
            }
            deliver();
        } else if (msg instanceof Http2ResetFrame reset) {
            Http2Error error = reset.error();
            if (error == Http2Error.REFUSED_STREAM && !responseHeadersSeen && replay != null) {
                retryRefused();
                return;
            }
            finish(Status.fromCodeValue(GrpcStatus.ofReset(error).code())
                    .withDescription("the server reset the stream: " + (error != null ? error : reset.errorCode())));
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    private void responseHeaders(Http2Headers headers) {
        if (!AsciiString.contentEquals(STATUS_200, headers.status())
                || !GrpcHeaderNames.isGrpc(headers)) {
            finish(Status.fromCodeValue(GrpcStatus.ofHttp(headers.status()).code())
                    .withDescription("not a gRPC response: HTTP " + headers.status() + ", content-type "
                            + headers.get(GrpcHeaderNames.CONTENT_TYPE)));
            return;
        }
        CharSequence encoding = headers.get(GrpcHeaderNames.GRPC_ENCODING);
        if (encoding != null && !AsciiString.contentEquals(GrpcHeaderNames.IDENTITY, encoding)) {
            decompressor = channel.decompressors().lookupDecompressor(encoding.toString());
            if (decompressor == null) {
                finish(Status.INTERNAL.withDescription("response grpc-encoding " + encoding + " is not supported"));
                return;
            }
        }
        Metadata metadata;
        try {
            metadata = GrpcMetadataCodec.toMetadata(headers);
        } catch (IllegalArgumentException e) {
            finish(Status.INTERNAL.withDescription("malformed binary metadata: " + e.getMessage()));
            return;
        }
        received.start(ctx.alloc(), channel.maxInboundMessageSize(), decompressor != null);
        dispatch(metadata);
    }

    /** The call's end from the server: trailers, or a trailers-only response. */
    private void trailers(Http2Headers headers, boolean trailersOnly) {
        CharSequence code = headers.get(GrpcHeaderNames.GRPC_STATUS);
        Status status;
        if (code == null) {
            // doc/http-grpc-status-mapping.md: no grpc-status, the HTTP status decides.
            status = Status.fromCodeValue((trailersOnly ? GrpcStatus.ofHttp(headers.status())
                    : GrpcStatus.INTERNAL).code()).withDescription("no grpc-status in the response");
        } else {
            status = Status.fromCodeValue(GrpcStatus.parse(code).code());
            CharSequence message = headers.get(GrpcHeaderNames.GRPC_MESSAGE);
            if (message != null) {
                status = status.withDescription(GrpcStatusMessage.decode(message));
            }
        }
        Metadata trailers;
        try {
            trailers = GrpcMetadataCodec.toMetadata(headers);
        } catch (IllegalArgumentException e) {
            trailers = new Metadata();
        }
        stopDeadline();
        Closed end = new Closed(status, trailers);
        if (status.isOk() && !received.isIdle()) {
            finish(Status.INTERNAL.withDescription("the response ended inside a message"));
        } else if (status.isOk()) {
            pendingClose = end;
            deliver();
        } else {
            done = true;
            releaseReceived();
            dispatch(end);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        inRead = false;
        flushIfPending();
        readIfWanted();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (pendingClose == null && ctx.channel() == stream) {
            Status why = connection != null ? connection.closedBecause : null;
            finish(why != null ? why
                    : Status.UNAVAILABLE.withDescription("the stream closed before the response ended"));
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (!done && ctx.channel() == stream && ctx.channel().isWritable()) {
            dispatch(READY);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (ctx.channel() != stream) {
            // The refused stream of a retried call, failing the writes it still held as it closes: the retry
            // resends those bytes from its copies.
            return;
        }
        finish(Status.INTERNAL.withDescription("stream failed").withCause(cause));
    }

    private void deliver() {
        Object message;
        while (!done && (message = received.next()) != null) {
            dispatch(message);
        }
        if (!done && pendingClose != null && received.isEmpty()) {
            done = true;
            dispatch(pendingClose);
            return;
        }
        readIfWanted();
    }

    private void readIfWanted() {
        if (!done && ctx != null && received.isEmpty() && ctx.channel().isActive()) {
            ctx.read();
        }
    }

    private void deadlineExceeded() {
        deadlineTimer = null;
        finish(Status.DEADLINE_EXCEEDED.withDescription("deadline exceeded"));
    }

    /** Ends the call here with {@code status}: the stream, if open, is reset (RST_STREAM CANCEL). */
    void finish(Status status) {
        if (done) {
            return;
        }
        done = true;
        stopDeadline();
        releaseReceived();
        dropReplay();
        ByteBuf m;
        while ((m = unsent.pollFirst()) != null) {
            m.release();
        }
        if (held != null) {
            held.release();
            held = null;
        }
        flushPending = false;
        Http2StreamChannel s = stream;
        if (s != null && s.isActive()) {
            // A child closed before its stream ended resets it with CANCEL.
            s.close();
        }
        dispatch(new Closed(status, new Metadata()));
    }

    /** The connection could not give the call a stream. */
    void failToStart(Status status) {
        finish(status);
    }

    private void stopDeadline() {
        if (deadlineTimer != null) {
            deadlineTimer.cancel(false);
            deadlineTimer = null;
        }
    }

    private void releaseReceived() {
        received.release();
    }

    // ================================================================ the listener's events

    private void dispatch(Object event) {
        WeirGrpcChannel.Connection c = connection;
        if (c != null) {
            c.listenersStarted();
        }
        try {
            if (!events.add(event, ReceivedMessages::releaseEvent)) {
                done = true;
            }
        } finally {
            if (c != null) {
                c.listenersEnded();
            }
        }
        if (!inRead && !events.isDraining() && flushPending && !flushQueued) {
            // What the events wrote goes out with what other calls write in this turn of the loop.
            queueFlush();
        }
    }

    private void handle(Object event) {
        Listener<RespT> l = listener;
        if (l == null) {
            ReceivedMessages.releaseEvent(event);
            return;
        }
        try {
            if (event instanceof Closed closed) {
                listener = null;
                context.removeListener(contextCancelled);
                Status status = failure != null ? failure : closed.status();
                if (status.getCode() == Status.Code.CANCELLED && deadline != null && deadline.isExpired()) {
                    // The server's reset at the deadline may come before our own timer: it is the deadline still.
                    status = Status.DEADLINE_EXCEEDED.withDescription("deadline exceeded (" + status.getDescription()
                            + ")");
                }
                l.onClose(status, closed.trailers());
            } else if (failure != null) {
                ReceivedMessages.releaseEvent(event);
            } else if (event instanceof Metadata headers) {
                l.onHeaders(headers);
            } else if (event == READY) {
                l.onReady();
            } else {
                RespT response;
                try {
                    response = ReceivedMessages.parse(event, method.getResponseMarshaller(), ctx.alloc(),
                            decompressor, channel.maxInboundMessageSize());
                } catch (StatusRuntimeException e) {
                    fail(e.getStatus());
                    return;
                }
                l.onMessage(response);
            }
        } catch (Throwable t) {
            fail(Status.CANCELLED.withDescription("the listener failed").withCause(t));
        }
    }

    /** The response could not be read, or the listener threw: the call is cancelled with {@code status}. */
    private void fail(Status status) {
        if (failure == null) {
            failure = status;
            onLoop(() -> finish(status));
        }
    }
}
