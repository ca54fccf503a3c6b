package io.weir.grpc;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.ByteBufAllocator;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.http2.Http2DataFrame;
import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Headers;
import io.weir.handler.codec.http2.Http2HeadersFrame;
import io.weir.handler.codec.http2.Http2ResetFrame;
import io.weir.util.AsciiString;
import io.weir.util.ReferenceCountUtil;
import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * One gRPC call on one HTTP/2 stream's child channel, server side (gRPC over HTTP/2, grpc/grpc
 * {@code doc/PROTOCOL-HTTP2.md}). The first HEADERS frame decides: a request that is not {@code application/grpc}
 * is handed to the HTTP handlers and this handler leaves the pipeline; a call of a grpc-java service mounted with
 * {@link GrpcRoute#services} is handed to its {@link ServerCallStream} the same way; otherwise the request is
 * checked (method POST, identity encoding, a valid {@code grpc-timeout}, a known path) and the method started, its
 * DATA cut into messages for the method's listener, and the method's answer written as HEADERS, DATA and trailers.
 *
 * <p>Only called on the stream's event loop, except the {@link GrpcServerCall} methods, which hop onto it.
 */
final class GrpcServerStream implements ChannelHandler, GrpcServerCall, GrpcMessageFraming.Sink {
    static final AsciiString CONTENT_TYPE = AsciiString.cached("content-type");
    static final AsciiString APPLICATION_GRPC = AsciiString.cached("application/grpc");
    static final AsciiString GRPC_STATUS = AsciiString.cached("grpc-status");
    static final AsciiString GRPC_MESSAGE = AsciiString.cached("grpc-message");
    static final AsciiString GRPC_TIMEOUT = AsciiString.cached("grpc-timeout");
    static final AsciiString GRPC_ENCODING = AsciiString.cached("grpc-encoding");
    static final AsciiString GRPC_ACCEPT_ENCODING = AsciiString.cached("grpc-accept-encoding");
    static final AsciiString IDENTITY = AsciiString.cached("identity");
    private static final AsciiString POST = AsciiString.cached("POST");
    private static final AsciiString STATUS_200 = AsciiString.cached("200");
    private static final AsciiString STATUS_405 = AsciiString.cached("405");

    private static final int STARTING = 0;
    private static final int OPEN = 1;
    private static final int DONE = 2;

    private final GrpcRoute route;
    private final ChannelHandler otherRequests;
    private ChannelHandlerContext ctx;
    private int state = STARTING;
    private String path;
    private GrpcCallListener listener;
    private GrpcMessageFraming framing;
    private ScheduledFuture<?> deadline;
    private long deadlineNanos;
    private boolean hasDeadline;
    private boolean headersSent;
    private boolean requestEnded;
    private boolean inRead;
    // The onReady handler is running (or its flush is): what it sends is flushed once when it returns.
    private boolean inReadyHandler;
    // The stream turned writable again while the handler or its flush ran.
    private boolean readyAgain;
    private boolean flushPending;
    private Runnable onReady;

    GrpcServerStream(GrpcRoute route, ChannelHandler otherRequests) {
        this.route = route;
        this.otherRequests = otherRequests;
    }

    /** Whether {@code headers} ask for gRPC: {@code content-type} is application/grpc or application/grpc+... */
    static boolean isGrpc(Http2Headers headers) {
        CharSequence type = headers.get(CONTENT_TYPE);
        int prefix = APPLICATION_GRPC.length();
        if (type == null || type.length() < prefix) {
            return false;
        }
        for (int i = 0; i < prefix; i++) {
            // Media types compare case-insensitively (RFC 9110 §8.3.1); the prefix is lower case.
            if ((type.charAt(i) | 0x20) != (APPLICATION_GRPC.charAt(i) | 0x20)) {
                return false;
            }
        }
        if (type.length() == prefix) {
            return true;
        }
        char next = type.charAt(prefix);
        return next == '+' || next == ';';
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (framing != null) {
            framing.release();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (state == STARTING) {
            if (msg instanceof Http2HeadersFrame headers && isGrpc(headers.headers())) {
                CharSequence p = headers.headers().path();
                ChannelHandler serviceCall = p == null ? null : route.serviceCall(p.toString());
                if (serviceCall != null) {
                    // A grpc-java service's method: its ServerCall takes the stream from the HEADERS frame on.
                    ctx.pipeline().replace(this, null, serviceCall);
                    ctx.pipeline().fireChannelRead(msg);
                    return;
                }
                inRead = true;
                start(headers);
            } else {
                // Not gRPC: the HTTP routes take the stream from its first frame on.
                ctx.pipeline().replace(this, null, otherRequests);
                ctx.pipeline().fireChannelRead(msg);
            }
            return;
        }
        inRead = true;
        if (state == DONE) {
            // Whatever the client still sends after the end of the call is read (for its flow control) and dropped.
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof Http2DataFrame data) {
            boolean end = data.endStream();
            try {
                // The framing releases the content, so the frame is released with it.
                framing.read(data.content(), this);
            } catch (GrpcException e) {
                finish(e.status(), e.description());
                return;
            }
            if (end) {
                requestEnded();
            }
        } else if (msg instanceof Http2HeadersFrame trailers) {
            // The client's trailers: they end the request (RFC 9113 §8.1).
            if (trailers.endStream()) {
                requestEnded();
            }
        } else if (msg instanceof Http2ResetFrame) {
            cancelled(GrpcStatus.CANCELLED);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        inRead = false;
        if (flushPending) {
            flushPending = false;
            ctx.flush();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (state == OPEN) {
            // The stream closed under the call (the connection went away): the client is gone.
            cancelled(GrpcStatus.CANCELLED);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (inReadyHandler) {
            // Our own flush below made the stream writable again: the loop below runs the handler once more.
            readyAgain = true;
        } else {
            runReadyHandler();
        }
        ctx.fireChannelWritabilityChanged();
    }

    /**
     * Runs the onReady handler while the stream is writable. A handler sends until the stream stops being writable
     * (its unflushed messages count), and everything it sent goes out in one flush, not one per message; when that
     * flush makes the stream writable again, the handler runs again here rather than inside the flush.
     */
    private void runReadyHandler() {
        inReadyHandler = true;
        try {
            do {
                readyAgain = false;
                Runnable handler = onReady;
                if (state != OPEN || handler == null || !ctx.channel().isWritable()) {
                    return;
                }
                try {
                    handler.run();
                } catch (Throwable t) {
                    finish(GrpcStatus.UNKNOWN, "method failed: " + t);
                }
                if (flushPending && !inRead) {
                    flushPending = false;
                    ctx.flush();
                }
            } while (readyAgain);
        } finally {
            inReadyHandler = false;
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (state == OPEN) {
            finish(GrpcStatus.INTERNAL, "stream failed: " + cause);
        }
    }

    private void start(Http2HeadersFrame request) {
        state = OPEN;
        Http2Headers headers = request.headers();
        requestEnded = request.endStream();
        // The codec checked that a request has a :path (RFC 9113 §8.3.1).
        path = headers.path().toString();
        if (!AsciiString.contentEquals(POST, headers.method())) {
            // gRPC over HTTP/2: ":method POST"; anything else is not a call.
            finish(GrpcStatus.INTERNAL, STATUS_405, "method " + headers.method() + " is not POST");
            return;
        }
        CharSequence encoding = headers.get(GRPC_ENCODING);
        if (encoding != null && !AsciiString.contentEquals(IDENTITY, encoding)) {
            // doc/compression.md: an encoding the server lacks is UNIMPLEMENTED, with the ones it has.
            finish(GrpcStatus.UNIMPLEMENTED, "grpc-encoding " + encoding + " is not supported (identity only)");
            return;
        }
        CharSequence timeout = headers.get(GRPC_TIMEOUT);
        if (timeout != null) {
            long nanos;
            try {
                nanos = GrpcTimeout.parseNanos(timeout);
            } catch (IllegalArgumentException e) {
                finish(GrpcStatus.INTERNAL, e.getMessage());
                return;
            }
            hasDeadline = true;
            deadlineNanos = System.nanoTime() + nanos;
            deadline = ctx.executor().schedule(this::deadlineExceeded, nanos, TimeUnit.NANOSECONDS);
        }
        framing = new GrpcMessageFraming(ctx.alloc(), route.maxMessageSize());
        GrpcCallListener l;
        try {
            l = route.start(path, this);
        } catch (Throwable t) {
            finish(GrpcStatus.UNKNOWN, "method failed to start: " + t);
            return;
        }
        if (l == null) {
            finish(GrpcStatus.UNIMPLEMENTED, "method not found: " + method());
            return;
        }
        listener = l;
        if (requestEnded && state == OPEN) {
            requestEnded = false;
            requestEnded();
        }
    }

    @Override
    public void onMessage(ByteBuf message, boolean compressed) {
        if (state != OPEN) {
            message.release();
            return;
        }
        try {
            listener.onMessage(message);
        } catch (Throwable t) {
            finish(GrpcStatus.UNKNOWN, "method failed: " + t);
        }
    }

    private void requestEnded() {
        requestEnded = true;
        if (state != OPEN) {
            return;
        }
        if (!framing.isIdle()) {
            finish(GrpcStatus.INTERNAL, "request ended inside a message");
            return;
        }
        try {
            listener.onHalfClose();
        } catch (Throwable t) {
            finish(GrpcStatus.UNKNOWN, "method failed: " + t);
        }
    }

    private void deadlineExceeded() {
        deadline = null;
        if (state != OPEN) {
            return;
        }
        finish(GrpcStatus.DEADLINE_EXCEEDED, "deadline exceeded");
    }

    /** The client reset the stream (or the connection closed): nothing is written. */
    private void cancelled(GrpcStatus reason) {
        state = DONE;
        stopDeadline();
        if (framing != null) {
            framing.release();
        }
        notifyCancel(reason);
    }

    private void notifyCancel(GrpcStatus reason) {
        Runnable handler = onReady;
        onReady = null;
        if (handler != null) {
            try {
                handler.run();
            } catch (Throwable ignored) {
                // As below: the call is over.
            }
        }
        GrpcCallListener l = listener;
        listener = null;
        if (l != null) {
            try {
                l.onCancel(reason);
            } catch (Throwable ignored) {
                // The call is over; a listener failing to clean up cannot change what the client sees.
            }
        }
    }

    private void stopDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }

    // ---------------------------------------------------------------- GrpcServerCall

    @Override
    public String method() {
        return path.startsWith("/") ? path.substring(1) : path;
    }

    @Override
    public EventExecutor executor() {
        return ctx.executor();
    }

    @Override
    public ByteBufAllocator alloc() {
        return ctx.alloc();
    }

    @Override
    public long remainingNanos() {
        return hasDeadline ? deadlineNanos - System.nanoTime() : Long.MAX_VALUE;
    }

    @Override
    public boolean isDone() {
        return state == DONE;
    }

    @Override
    public boolean isReady() {
        return ctx.channel().isWritable();
    }

    @Override
    public void onReady(Runnable handler) {
        if (!ctx.executor().inEventLoop()) {
            ctx.executor().execute(() -> onReady(handler));
            return;
        }
        if (state == DONE) {
            if (handler != null) {
                handler.run();
            }
            return;
        }
        onReady = handler;
    }

    @Override
    public void sendMessage(ByteBuf message) {
        if (!ctx.executor().inEventLoop()) {
            ctx.executor().execute(() -> sendMessage(message));
            return;
        }
        if (state != OPEN) {
            message.release();
            return;
        }
        if (!headersSent) {
            headersSent = true;
            ctx.write(new Http2HeadersFrame(responseHeaders(STATUS_200), false), ctx.voidPromise());
        }
        ctx.write(new Http2DataFrame(GrpcMessageFraming.frame(ctx.alloc(), message), false), ctx.voidPromise());
        flush();
    }

    @Override
    public void close(GrpcStatus status, String description) {
        if (!ctx.executor().inEventLoop()) {
            ctx.executor().execute(() -> close(status, description));
            return;
        }
        if (state == OPEN) {
            listener = null;
            finish(status, description);
        }
    }

    // ---------------------------------------------------------------- writing the end

    private void finish(GrpcStatus status, String description) {
        finish(status, STATUS_200, description);
    }

    /**
     * Writes the call's end: trailers after a response, or a trailers-only response (gRPC over HTTP/2,
     * "Trailers-Only"); then, if the client is still sending, resets the stream (RFC 9113 §8.1: NO_ERROR after a
     * complete answer, CANCEL after an error, so that the client stops). A listener still attached (the call ended
     * by the route, not by the method's own close) hears it as a cancel with {@code status}.
     */
    private void finish(GrpcStatus status, AsciiString httpStatus, String description) {
        state = DONE;
        stopDeadline();
        if (framing != null) {
            framing.release();
        }
        Http2Headers trailers = headersSent ? new Http2Headers(2, false) : responseHeaders(httpStatus);
        trailers.add(GRPC_STATUS, status.text());
        if (description != null && !description.isEmpty()) {
            trailers.add(GRPC_MESSAGE, GrpcStatusMessage.encode(description));
        }
        if (status == GrpcStatus.UNIMPLEMENTED) {
            trailers.add(GRPC_ACCEPT_ENCODING, IDENTITY);
        }
        headersSent = true;
        ctx.write(new Http2HeadersFrame(trailers, true), ctx.voidPromise());
        if (!requestEnded) {
            if (status == GrpcStatus.OK) {
                ctx.write(new Http2ResetFrame(Http2Error.NO_ERROR), ctx.voidPromise());
            } else {
                ctx.flush();
                // A child closed before its stream ended resets it with CANCEL.
                ctx.channel().close();
                notifyCancel(status);
                return;
            }
        }
        flush();
        notifyCancel(status);
    }

    private void flush() {
        if (inRead || inReadyHandler) {
            flushPending = true;
        } else {
            ctx.flush();
        }
    }

    private static Http2Headers responseHeaders(AsciiString httpStatus) {
        Http2Headers headers = new Http2Headers(4, false);
        headers.status(httpStatus);
        headers.add(CONTENT_TYPE, APPLICATION_GRPC);
        return headers;
    }
}
