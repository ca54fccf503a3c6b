package io.weir.grpc;

import io.grpc.Attributes;
import io.grpc.Compressor;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Decompressor;
import io.grpc.Grpc;
import io.grpc.KnownLength;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerMethodDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2FrameStream;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2ResetFrame;
import io.weir.handler.codec.http2.Http2StreamChannel;
import io.weir.handler.ssl.SslHandler;
import io.weir.util.AsciiString;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One call of a grpc-java service on one HTTP/2 stream's child channel: the {@link ServerCall} the service's
 * {@link io.grpc.ServerCallHandler} gets, and the stream's handler.
 *
 * <p><b>Threads.</b> The handler methods and every write run on the stream's event loop. The service calls the
 * {@code ServerCall} methods from its own thread (one at a time, as grpc-java requires): they serialize on the
 * caller's thread and hand the bytes to the loop. The listener's callbacks run on the services' executor, one at a
 * time and in order, inside the call's {@link Context}; with no executor they run on the event loop, queued rather
 * than nested when a callback causes another.
 *
 * <p><b>Inbound flow control.</b> The child channel's auto-read is off: the stream is read only while no received
 * message waits for the service's {@link #request}, so a service that asks for nothing leaves the client's DATA
 * unread and unacknowledged and the client stops at the HTTP/2 window (at most one read's worth of frames is
 * buffered beyond it). A client's RST_STREAM queued behind unread DATA is seen when the service next reads, when it
 * next writes (the stream is no longer active) or at the deadline.
 *
 * <p><b>Outbound.</b> {@link #isReady()} follows the stream channel's writability (its send window, the
 * connection's) and, with an executor, the bytes handed to the loop but not yet written; {@code onReady} fires when
 * it turns true again. Messages sent on the event loop are serialized back to back into one buffer and go out as one
 * DATA frame when the loop flushes (or once {@value #GATHER_BYTES} octets are gathered): a service that streams
 * small messages costs one frame, one buffer and one write per batch rather than per message.
 */
final class ServerCallStream<ReqT, RespT> extends ServerCall<ReqT, RespT>
        implements ChannelHandler {
    /** Bytes sent from another thread and not yet written, above which {@link #isReady()} is false (grpc-java's). */
    static final int DEFAULT_ON_READY_THRESHOLD_BYTES = 32 * 1024;
    /**
     * Octets of messages gathered on the event loop before they are written as one DATA frame (one frame at the
     * default SETTINGS_MAX_FRAME_SIZE; the codec splits larger ones). A larger message goes out on its own.
     */
    static final int GATHER_BYTES = 16 * 1024;

    private static final AsciiString STATUS_200 = AsciiString.cached("200");
    private static final AsciiString STATUS_405 = AsciiString.cached("405");
    private static final AsciiString POST = AsciiString.cached("POST");
    /** Listener events besides messages ({@link ReceivedMessages#next()}), the start ({@link Metadata}) and a
     *  cancel (its {@link Status}). */
    private static final Object HALF_CLOSE = new Object();
    private static final Object READY = new Object();
    private static final Object COMPLETE = new Object();

    private final GrpcServices services;
    private final ServerMethodDefinition<ReqT, RespT> method;
    private final MethodDescriptor<ReqT, RespT> descriptor;
    private final CallEventQueue events;
    private final AtomicLong bytesInFlight = new AtomicLong();

    // ---- event loop only
    private ChannelHandlerContext ctx;
    /**
     * The call's stream, which every frame written is bound to: a frame written without one would be copied onto it
     * by the stream channel, an object per frame.
     */
    private Http2FrameStream stream;
    private EventExecutor loop;
    private ReceivedMessages received;
    private boolean started;
    private boolean requestEnded;
    private boolean halfCloseDelivered;
    /** Trailers written or the call cancelled: nothing more is written, nothing more is delivered. */
    private boolean closed;
    private boolean inRead;
    private boolean flushPending;
    /** The service's response headers were written: the call's end is trailers, not a trailers-only response. */
    private boolean appHeadersSentOnLoop;
    private ScheduledFuture<?> deadlineTimer;
    /** Messages serialized on the loop and not yet written to the stream channel (see {@link #gather}). */
    private ByteBuf gathered;
    private int gatheredMessages;
    /** The last batch held more than one message: the next one starts at {@link #GATHER_BYTES}. */
    private boolean gatherWide;

    // ---- set on the loop before the start event, read by the service's thread afterwards
    private Context.CancellableContext context;
    private String authority;
    private Decompressor decompressor;
    private CharSequence clientAcceptEncoding;

    // ---- the service's thread (ServerCall methods are called one at a time)
    private Attributes attributes;
    private Compressor compressor;
    private Compressor responseCompressor;
    private boolean messageCompression = true;
    private boolean appHeadersSent;
    private boolean appClosed;

    // ---- the listener's thread
    private Listener<ReqT> listener;

    private volatile boolean cancelled;
    private volatile int onReadyThreshold = DEFAULT_ON_READY_THRESHOLD_BYTES;

    ServerCallStream(GrpcServices services, ServerMethodDefinition<ReqT, RespT> method) {
        this.services = services;
        this.method = method;
        this.descriptor = method.getMethodDescriptor();
        this.events = new CallEventQueue(services.executor(), this::handle);
    }

    // ================================================================ the stream (event loop)

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.stream = ((Http2StreamChannel) ctx.channel()).stream();
        this.loop = ctx.executor();
        this.received = new ReceivedMessages(loop, this::demandAdded);
        // The stream is read at the service's pace (request(n)), not as fast as the client sends.
        ctx.channel().config().setAutoRead(false);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseReceived();
        releaseGathered();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        inRead = true;
        if (!started) {
            start((Http2HeadersFrame) msg);
            return;
        }
        if (msg instanceof Http2DataFrame data) {
            boolean end = data.endStream();
            if (closed) {
                data.release();
                return;
            }
            Status refused = received.read(data.content());
            if (refused != null) {
                abort(refused);
                return;
            }
            if (end) {
                requestEnded = true;
            }
            deliver();
        } else if (msg instanceof Http2HeadersFrame trailers) {
            // The client's trailers end the request (RFC 9113 §8.1).
            if (trailers.endStream()) {
                requestEnded = true;
                deliver();
            }
        } else if (msg instanceof Http2ResetFrame) {
            peerCancelled("the client reset the stream");
        } else {
            ReferenceCountUtil.release(msg);
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
        // The stream closed under the call (the client reset it, the connection went away).
        peerCancelled("the stream closed");
        ctx.fireChannelInactive();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (started && !closed && ctx.channel().isWritable()) {
            dispatch(READY);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        abort(Status.INTERNAL.withDescription("stream failed: " + cause));
    }

    private void start(Http2HeadersFrame request) {
        started = true;
        Http2Headers headers = request.headers();
        requestEnded = request.endStream();
        CharSequence a = headers.authority();
        authority = a == null ? null : a.toString();
        if (!AsciiString.contentEquals(POST, headers.method())) {
            // gRPC over HTTP/2: ":method POST"; anything else is not a call.
            refuse(Status.INTERNAL.withDescription("method " + headers.method() + " is not POST"), STATUS_405);
            return;
        }
        CharSequence encoding = headers.get(GrpcHeaderNames.GRPC_ENCODING);
        if (encoding != null && !AsciiString.contentEquals(GrpcHeaderNames.IDENTITY, encoding)) {
            decompressor = services.decompressors().lookupDecompressor(encoding.toString());
            if (decompressor == null) {
                // doc/compression.md: an encoding the server lacks is UNIMPLEMENTED, with the ones it has.
                refuse(Status.UNIMPLEMENTED.withDescription("grpc-encoding " + encoding + " is not supported"),
                        STATUS_200);
                return;
            }
        }
        CharSequence timeout = headers.get(GrpcHeaderNames.GRPC_TIMEOUT);
        long timeoutNanos = -1;
        if (timeout != null) {
            try {
                timeoutNanos = GrpcTimeout.parseNanos(timeout);
            } catch (IllegalArgumentException e) {
                // As grpc-java's server: a request it cannot read is INTERNAL, before any service code runs.
                refuse(Status.INTERNAL.withDescription(e.getMessage()), STATUS_200);
                return;
            }
        }
        Metadata metadata;
        try {
            metadata = GrpcMetadataCodec.toMetadata(headers);
        } catch (IllegalArgumentException e) {
            refuse(Status.INTERNAL.withDescription("malformed binary metadata: " + e.getMessage()), STATUS_200);
            return;
        }
        clientAcceptEncoding = headers.get(GrpcHeaderNames.GRPC_ACCEPT_ENCODING);
        received.start(ctx.alloc(), services.maxInboundMessageSize(), decompressor != null);
        if (timeoutNanos >= 0) {
            context = Context.ROOT.withDeadline(Deadline.after(timeoutNanos, TimeUnit.NANOSECONDS), loop);
            deadlineTimer = loop.schedule(this::deadlineExceeded, timeoutNanos, TimeUnit.NANOSECONDS);
        } else {
            context = Context.ROOT.withCancellation();
        }
        dispatch(metadata);
        if (ctx.channel().isWritable()) {
            // grpc-java tells a new call once that it may send.
            dispatch(READY);
        }
        deliver();
    }

    /** Answers a request no service sees with a trailers-only response; the stream's rest is dropped. */
    private void refuse(Status status, AsciiString httpStatus) {
        closed = true;
        Http2Headers trailers = trailersOnlyHeaders(httpStatus);
        addStatus(trailers, status);
        if (status.getCode() == Status.Code.UNIMPLEMENTED) {
            trailers.add(GrpcHeaderNames.GRPC_ACCEPT_ENCODING, services.acceptEncoding());
        }
        writeEnd(trailers, null);
    }

    /** Hands received messages to the service as it asked for them, then the half-close; reads on if wanted. */
    private void deliver() {
        Object message;
        while (!closed && (message = received.next()) != null) {
            dispatch(message);
        }
        if (!closed && requestEnded && received.isEmpty() && !halfCloseDelivered) {
            if (!received.isIdle()) {
                abort(Status.INTERNAL.withDescription("the request ended inside a message"));
                return;
            }
            halfCloseDelivered = true;
            dispatch(HALF_CLOSE);
        }
        readIfWanted();
    }

    /**
     * Reads the stream on while no message waits for the service (after the half-close only a reset can come, so
     * it is read too).
     */
    private void readIfWanted() {
        if (!closed && received.isEmpty() && ctx.channel().isActive()) {
            ctx.read();
        }
    }

    private void deadlineExceeded() {
        deadlineTimer = null;
        if (!closed) {
            abort(Status.DEADLINE_EXCEEDED.withDescription("deadline exceeded"));
        }
    }

    /** The client reset the stream or went away: nothing is written; the service hears a cancel. */
    private void peerCancelled(String why) {
        if (closed) {
            return;
        }
        closed = true;
        stopDeadline();
        releaseReceived();
        releaseGathered();
        if (started && context != null) {
            cancelCall(Status.CANCELLED.withDescription(why));
        }
    }

    /**
     * Ends the call on the server's side without the service: trailers with {@code status} (trailers-only if no
     * header was sent), the stream reset if the client is still sending, and a cancel for the service.
     */
    private void abort(Status status) {
        if (closed) {
            return;
        }
        closed = true;
        stopDeadline();
        Http2Headers trailers = appHeadersSentOnLoop ? new Http2Headers(2, false) : trailersOnlyHeaders(STATUS_200);
        addStatus(trailers, status);
        writeEnd(trailers, null);
        if (context != null) {
            cancelCall(status);
        }
    }

    private void cancelCall(Status status) {
        cancelled = true;
        context.cancel(new QuietStatusException(status));
        dispatch(status);
    }

    /**
     * Writes the end of the call's response; once written, {@code done} (if not null) learns whether it was. If the
     * client is still sending, the stream is then closed, which resets it (NO_ERROR after a complete response,
     * RFC 9113 §8.1) and drops what the client still sends.
     */
    private void writeEnd(Http2Headers trailers, io.weir.channel.ChannelFutureListener done) {
        stopDeadline();
        releaseReceived();
        ChannelPromise promise = done == null ? ctx.voidPromise() : ctx.newPromise();
        if (done != null) {
            promise.addListener(done);
        }
        writeGathered();
        ctx.write(new Http2HeadersFrame(stream, trailers, true), promise);
        if (!requestEnded) {
            ctx.flush();
            ctx.channel().close();
        } else {
            flush();
        }
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

    private void releaseGathered() {
        ByteBuf g = gathered;
        if (g != null) {
            gathered = null;
            g.release();
        }
    }

    /** Writes the gathered messages (if any) to the stream channel as one DATA frame; the caller flushes. */
    private void writeGathered() {
        ByteBuf g = gathered;
        if (g != null) {
            gathered = null;
            gatherWide = gatheredMessages > 1;
            ctx.write(new Http2DataFrame(stream, g, false, 0), ctx.voidPromise());
        }
    }

    private void flush() {
        if (inRead || events.isDraining()) {
            flushPending = true;
        } else {
            writeGathered();
            ctx.flush();
        }
    }

    private void flushIfPending() {
        if (flushPending) {
            flushPending = false;
            writeGathered();
            ctx.flush();
        }
    }

    private static Http2Headers trailersOnlyHeaders(AsciiString httpStatus) {
        Http2Headers headers = new Http2Headers(6, false);
        headers.status(httpStatus);
        headers.add(GrpcHeaderNames.CONTENT_TYPE, GrpcHeaderNames.APPLICATION_GRPC);
        return headers;
    }

    private static void addStatus(Http2Headers trailers, Status status) {
        trailers.add(GrpcHeaderNames.GRPC_STATUS, GrpcStatus.of(status.getCode().value()).text());
        String description = status.getDescription();
        if (description != null && !description.isEmpty()) {
            trailers.add(GrpcHeaderNames.GRPC_MESSAGE, GrpcStatusMessage.encode(description));
        }
    }

    // ================================================================ ServerCall (the service's thread)

    @Override
    public void request(int numMessages) {
        received.request(numMessages);
    }

    private void demandAdded() {
        if (started && !closed) {
            deliver();
        }
    }

    @Override
    public void sendHeaders(Metadata headers) {
        if (appHeadersSent) {
            throw new IllegalStateException("sendHeaders has already been called");
        }
        if (appClosed) {
            throw new IllegalStateException("call is closed");
        }
        appHeadersSent = true;
        Http2Headers h = new Http2Headers(8, true);
        h.status(STATUS_200);
        h.add(GrpcHeaderNames.CONTENT_TYPE, GrpcHeaderNames.APPLICATION_GRPC);
        Compressor c = compressor;
        if (c != null && c != io.grpc.Codec.Identity.NONE && accepts(clientAcceptEncoding, c.getMessageEncoding())) {
            responseCompressor = c;
            h.add(GrpcHeaderNames.GRPC_ENCODING, c.getMessageEncoding());
        }
        if (!services.acceptEncoding().isEmpty()) {
            h.add(GrpcHeaderNames.GRPC_ACCEPT_ENCODING, services.acceptEncoding());
        }
        GrpcMetadataCodec.addTo(headers, h);
        if (loop.inEventLoop()) {
            writeHeaders(h);
        } else {
            loop.execute(() -> writeHeaders(h));
        }
    }

    private void writeHeaders(Http2Headers headers) {
        appHeadersSentOnLoop = true;
        if (!closed) {
            ctx.write(new Http2HeadersFrame(stream, headers, false), ctx.voidPromise());
            flush();
        }
    }

    @Override
    public void sendMessage(RespT message) {
        if (!appHeadersSent) {
            throw new IllegalStateException("sendHeaders has not been called");
        }
        if (appClosed) {
            throw new IllegalStateException("call is closed");
        }
        ByteBuf framed;
        try {
            if (loop.inEventLoop()) {
                gather(message);
                return;
            }
            framed = serialize(message);
        } catch (ByteBufMessageOutputStream.MessageTooLargeException e) {
            close(Status.RESOURCE_EXHAUSTED.withDescription("response message larger than "
                    + services.maxOutboundMessageSize() + " bytes"), new Metadata());
            return;
        } catch (IOException | RuntimeException e) {
            close(Status.INTERNAL.withDescription("response message not serialized").withCause(e), new Metadata());
            return;
        }
        int size = framed.readableBytes();
        bytesInFlight.addAndGet(size);
        loop.execute(() -> writeMessageFromElsewhere(framed, size));
    }

    /**
     * Serializes {@code message} (on the event loop) behind the messages gathered since the last flush; one that
     * does not fit in {@link #GATHER_BYTES}, or whose length is not known up front, is written on its own after
     * them. The stream is flushed when the loop turn ends.
     */
    private void gather(RespT message) throws IOException {
        if (closed) {
            return;
        }
        if (!stream.isActive()) {
            // The client reset the stream while its frames waited unread.
            peerCancelled("the client reset the stream");
            return;
        }
        InputStream in = descriptor.streamResponse(message);
        Compressor c = messageCompression ? responseCompressor : null;
        int known = c == null && in instanceof KnownLength ? in.available() : -1;
        int framedBytes = GrpcMessageFraming.HEADER_BYTES + known;
        if (known < 0 || framedBytes > GATHER_BYTES) {
            ByteBuf framed = GrpcMessageCodec.encode(ctx.alloc(), in, c, services.maxOutboundMessageSize());
            writeGathered();
            ctx.write(new Http2DataFrame(stream, framed, false, 0), ctx.voidPromise());
            flush();
            return;
        }
        if (gathered != null && gathered.writerIndex() + framedBytes > GATHER_BYTES) {
            writeGathered();
        }
        if (gathered == null) {
            gathered = ctx.alloc().buffer(gatherWide ? GATHER_BYTES : framedBytes);
            gatheredMessages = 0;
        }
        try {
            GrpcMessageCodec.append(gathered, in, null, known, services.maxOutboundMessageSize());
        } finally {
            if (!gathered.isReadable()) {
                releaseGathered();
            }
        }
        gatheredMessages++;
        flush();
    }

    /** {@code message} behind its 5-octet prefix, compressed if the call's compression is on. */
    private ByteBuf serialize(RespT message) throws IOException {
        return GrpcMessageCodec.encode(ctx.alloc(), descriptor.streamResponse(message),
                messageCompression ? responseCompressor : null, services.maxOutboundMessageSize());
    }

    private void writeMessageFromElsewhere(ByteBuf framed, int size) {
        writeMessage(framed);
        long after = bytesInFlight.addAndGet(-size);
        int threshold = onReadyThreshold;
        if (after < threshold && after + size >= threshold && started && !closed && ctx.channel().isWritable()) {
            dispatch(READY);
        }
    }

    private void writeMessage(ByteBuf framed) {
        if (closed) {
            framed.release();
            return;
        }
        if (!stream.isActive()) {
            // The client reset the stream while its frames waited unread.
            framed.release();
            peerCancelled("the client reset the stream");
            return;
        }
        writeGathered();
        ctx.write(new Http2DataFrame(stream, framed, false, 0), ctx.voidPromise());
        flush();
    }

    @Override
    public boolean isReady() {
        return !cancelled && !appClosed && bytesInFlight.get() < onReadyThreshold && ctx.channel().isWritable();
    }

    @Override
    public void setOnReadyThreshold(int numBytes) {
        if (numBytes <= 0) {
            throw new IllegalArgumentException("numBytes: " + numBytes + " (expected > 0)");
        }
        onReadyThreshold = numBytes;
    }

    @Override
    public void close(Status status, Metadata trailers) {
        if (appClosed) {
            throw new IllegalStateException("call already closed");
        }
        appClosed = true;
        Http2Headers t = appHeadersSent ? new Http2Headers(4, true) : trailersOnlyHeaders(STATUS_200);
        addStatus(t, status);
        try {
            GrpcMetadataCodec.addTo(trailers, t);
        } catch (IllegalArgumentException e) {
            t = appHeadersSent ? new Http2Headers(2, false) : trailersOnlyHeaders(STATUS_200);
            addStatus(t, Status.INTERNAL.withDescription("trailers HTTP/2 cannot carry: " + e.getMessage()));
        }
        if (loop.inEventLoop()) {
            writeClose(t);
        } else {
            Http2Headers end = t;
            loop.execute(() -> writeClose(end));
        }
    }

    private void writeClose(Http2Headers trailers) {
        if (closed) {
            return;
        }
        closed = true;
        writeEnd(trailers, this::closeWritten);
    }

    private void closeWritten(ChannelFuture future) {
        if (future.isSuccess()) {
            dispatch(COMPLETE);
        } else {
            cancelCall(Status.CANCELLED.withDescription("the call's end was not sent: " + future.cause()));
        }
    }

    /** The stream's event loop (set when the handler is added). */
    EventExecutor eventLoop() {
        return loop;
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    @Override
    public void setMessageCompression(boolean enabled) {
        messageCompression = enabled;
    }

    @Override
    public void setCompression(String compressorName) {
        if (appHeadersSent) {
            throw new IllegalStateException("sendHeaders has been called");
        }
        Compressor c = services.compressors().lookupCompressor(compressorName);
        if (c == null) {
            throw new IllegalArgumentException("no compressor named " + compressorName);
        }
        compressor = c;
    }

    /**
     * The peer's and our addresses ({@code Grpc.TRANSPORT_ATTR_*_ADDR}) and, over TLS, the session
     * ({@code Grpc.TRANSPORT_ATTR_SSL_SESSION}); built when first asked for.
     */
    @Override
    public Attributes getAttributes() {
        Attributes a = attributes;
        if (a == null) {
            Attributes.Builder b = Attributes.newBuilder()
                    .set(Grpc.TRANSPORT_ATTR_REMOTE_ADDR, ctx.channel().remoteAddress())
                    .set(Grpc.TRANSPORT_ATTR_LOCAL_ADDR, ctx.channel().localAddress());
            io.weir.channel.Channel connection = ctx.channel().parent();
            SslHandler tls = connection == null ? null : connection.pipeline().get(SslHandler.class);
            if (tls != null) {
                b.set(Grpc.TRANSPORT_ATTR_SSL_SESSION, tls.engine().getSession());
            }
            a = b.build();
            attributes = a;
        }
        return a;
    }

    @Override
    public String getAuthority() {
        return authority;
    }

    @Override
    public MethodDescriptor<ReqT, RespT> getMethodDescriptor() {
        return descriptor;
    }

    /** Whether a {@code grpc-accept-encoding} value names {@code encoding}. */
    static boolean accepts(CharSequence acceptEncoding, String encoding) {
        if (acceptEncoding == null) {
            return false;
        }
        String value = acceptEncoding.toString();
        int start = 0;
        while (start <= value.length()) {
            int comma = value.indexOf(',', start);
            int end = comma < 0 ? value.length() : comma;
            if (value.substring(start, end).trim().equals(encoding)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    // ================================================================ the listener's events

    /** Queues a listener event (on the event loop). */
    private void dispatch(Object event) {
        if (!events.add(event, ReceivedMessages::releaseEvent)) {
            abort(Status.UNAVAILABLE.withDescription("the services' executor refused the call"));
        }
        if (!inRead && !events.isDraining()) {
            flushIfPending();
        }
    }

    private void handle(Object event) {
        if (event instanceof Metadata headers) {
            startCall(headers);
            return;
        }
        Listener<ReqT> l = listener;
        if (l == null) {
            ReceivedMessages.releaseEvent(event);
            return;
        }
        Context previous = context.attach();
        try {
            if (ReceivedMessages.isMessage(event)) {
                ReqT request;
                try {
                    request = ReceivedMessages.parse(event, descriptor.getRequestMarshaller(), ctx.alloc(),
                            decompressor, services.maxInboundMessageSize());
                } catch (StatusRuntimeException e) {
                    listenerFailed(e.getStatus());
                    return;
                }
                l.onMessage(request);
            } else if (event == HALF_CLOSE) {
                l.onHalfClose();
            } else if (event == READY) {
                l.onReady();
            } else if (event == COMPLETE) {
                listener = null;
                try {
                    l.onComplete();
                } finally {
                    context.cancel(null);
                }
            } else if (event instanceof Status) {
                listener = null;
                l.onCancel();
            }
        } catch (Throwable t) {
            listenerFailed(Status.UNKNOWN.withDescription("the service failed: " + t).withCause(t));
        } finally {
            context.detach(previous);
        }
    }

    private void startCall(Metadata headers) {
        Context previous = context.attach();
        try {
            Listener<ReqT> l = method.getServerCallHandler().startCall(this, headers);
            if (l == null) {
                throw new NullPointerException("startCall returned a null listener");
            }
            listener = l;
        } catch (Throwable t) {
            listenerFailed(Status.UNKNOWN.withDescription("the service failed to start: " + t).withCause(t));
        } finally {
            context.detach(previous);
        }
    }

    /** A listener threw (or a request could not be read): the call ends with {@code status}, the service is told. */
    private void listenerFailed(Status status) {
        if (loop.inEventLoop()) {
            abort(status);
        } else {
            loop.execute(() -> abort(status));
        }
    }

    /**
     * The cause a cancelled call's {@link Context} carries: its status, without a stack trace (peers cancel at will).
     */
    private static final class QuietStatusException extends StatusRuntimeException {
        private static final long serialVersionUID = 1L;

        QuietStatusException(Status status) {
            super(status, null);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
