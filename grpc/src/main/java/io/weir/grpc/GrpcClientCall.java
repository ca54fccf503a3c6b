package io.weir.grpc;

import io.weir.buffer.ByteBuf;
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
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One call of a {@link GrpcClient}: send request messages, half-close, or cancel; the {@link Listener} hears the
 * response messages and the status. Made by {@link GrpcClient#newCall}, which starts it.
 *
 * <p>Thread-safe: every method may be called from any thread and runs on the connection's event loop, in call
 * order; the listener is called there too. Messages sent before the stream is open wait for it.
 */
public final class GrpcClientCall {
    private static final AsciiString TE = AsciiString.cached("te");
    private static final AsciiString TRAILERS = AsciiString.cached("trailers");
    private static final AsciiString POST = AsciiString.cached("POST");

    /** What a call's response brings. Called on the connection's event loop, one event at a time. */
    public interface Listener {
        /** A response message; the listener owns {@code message} and releases it. */
        void onMessage(ByteBuf message);

        /**
         * The call ended: the server's {@code grpc-status} and decoded {@code grpc-message} (null if none), or the
         * client's own verdict (DEADLINE_EXCEEDED, CANCELLED, UNAVAILABLE when the stream could not be opened or the
         * connection closed, INTERNAL for a malformed response). Called exactly once; nothing follows.
         */
        void onClose(GrpcStatus status, String description);
    }

    private final GrpcClient client;
    private final String path;
    private final long timeoutNanos;
    private final Listener listener;
    private final EventLoop loop;
    private final ArrayDeque<Object> pending = new ArrayDeque<>(2);
    private Http2StreamChannel stream;
    private GrpcMessageFraming framing;
    private ScheduledFuture<?> deadline;
    private long deadlineNanos;
    private boolean responseHeadersSeen;
    private boolean halfClosed;
    private boolean done;

    GrpcClientCall(GrpcClient client, String fullMethodName, long timeoutNanos, Listener listener, EventLoop loop) {
        this.client = client;
        this.path = "/" + fullMethodName;
        this.timeoutNanos = timeoutNanos;
        this.listener = listener;
        this.loop = loop;
    }

    private boolean deadlinePassed() {
        return timeoutNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos >= 0;
    }

    /** Starts the deadline when the call is made, before it may wait for a stream (on the event loop). */
    void armDeadline() {
        if (timeoutNanos != Long.MAX_VALUE) {
            deadlineNanos = System.nanoTime() + timeoutNanos;
            deadline = loop.schedule(() -> end(GrpcStatus.DEADLINE_EXCEEDED, "deadline exceeded (client)"),
                    timeoutNanos, TimeUnit.NANOSECONDS);
        }
    }

    /** Opens the stream, in one of the client's stream slots, and writes the request headers (on the event loop). */
    void start() {
        framing = new GrpcMessageFraming(client.channel().alloc(), client.maxMessageSize());
        new Http2StreamChannelBootstrap(client.channel()).handler(new Handler()).open().addListener(f -> {
            if (!f.isSuccess()) {
                client.streamReleased();
                end(GrpcStatus.UNAVAILABLE, "could not open a stream: " + f.cause());
                return;
            }
            Http2StreamChannel ch = (Http2StreamChannel) f.getNow();
            // The codec has retired the stream by the time its child's close is seen: the next call fits at once.
            ch.closeFuture().addListener(closed -> client.streamReleased());
            opened(ch);
        });
    }

    private void opened(Http2StreamChannel ch) {
        if (done) {
            ch.close();
            return;
        }
        stream = ch;
        Http2Headers headers = new Http2Headers(8, false).method(POST).scheme(client.scheme()).path(path)
                .authority(client.authority());
        headers.add(GrpcServerStream.CONTENT_TYPE, GrpcServerStream.APPLICATION_GRPC);
        headers.add(TE, TRAILERS);
        if (timeoutNanos != Long.MAX_VALUE) {
            headers.add(GrpcServerStream.GRPC_TIMEOUT, GrpcTimeout.format(timeoutNanos));
        }
        boolean endNow = halfClosed && pending.isEmpty();
        ch.write(new Http2HeadersFrame(headers, endNow)).addListener(f -> {
            if (!f.isSuccess()) {
                // The connection could not open another stream (the server's limit, GOAWAY, closed).
                end(GrpcStatus.UNAVAILABLE, "request headers not sent: " + f.cause());
            }
        });
        Object msg;
        while ((msg = pending.pollFirst()) != null) {
            ByteBuf message = (ByteBuf) msg;
            ch.write(new Http2DataFrame(GrpcMessageFraming.frame(ch.alloc(), message),
                    halfClosed && pending.isEmpty()));
        }
        ch.flush();
    }

    /** Sends one request message; takes ownership of {@code message} (released if the call has ended). */
    public void sendMessage(ByteBuf message) {
        if (!loop.inEventLoop()) {
            loop.execute(() -> sendMessage(message));
            return;
        }
        if (done || halfClosed) {
            message.release();
            return;
        }
        if (stream == null) {
            pending.addLast(message);
            return;
        }
        stream.writeAndFlush(new Http2DataFrame(GrpcMessageFraming.frame(stream.alloc(), message), false));
    }

    /** Ends the request side (END_STREAM): the server has all the messages. Does nothing the second time. */
    public void halfClose() {
        if (!loop.inEventLoop()) {
            loop.execute(this::halfClose);
            return;
        }
        if (done || halfClosed) {
            return;
        }
        halfClosed = true;
        if (stream != null) {
            stream.writeAndFlush(new Http2DataFrame(stream.alloc().buffer(0, 0), true));
        }
    }

    /**
     * Cancels the call: RST_STREAM(CANCEL) to the server and {@link GrpcStatus#CANCELLED} to the listener. Does
     * nothing once the call has ended.
     */
    public void cancel(String why) {
        if (!loop.inEventLoop()) {
            loop.execute(() -> cancel(why));
            return;
        }
        end(GrpcStatus.CANCELLED, why);
    }

    /** Whether the call ended (only meaningful on the event loop; a hint elsewhere). */
    public boolean isDone() {
        return done;
    }

    private void end(GrpcStatus status, String description) {
        if (done) {
            return;
        }
        done = true;
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
        if (framing != null) {
            framing.release();
        }
        Object msg;
        while ((msg = pending.pollFirst()) != null) {
            ReferenceCountUtil.release(msg);
        }
        if (stream != null) {
            // Closing a child whose stream has not ended resets it with CANCEL (what the server still has in flight
            // is ignored, RFC 9113 §5.1); after the trailers it just closes.
            stream.close();
        }
        try {
            listener.onClose(status, description);
        } catch (Throwable ignored) {
            // The call is over; a listener that fails on its last event has nobody to tell.
        }
    }

    /** The stream's handler: the response, cut into messages; the trailers; a reset. */
    private final class Handler implements ChannelHandler {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (done) {
                ReferenceCountUtil.release(msg);
                return;
            }
            if (msg instanceof Http2DataFrame data) {
                boolean end = data.endStream();
                if (!responseHeadersSeen) {
                    data.release();
                    end(GrpcStatus.INTERNAL, "DATA before the response headers");
                    return;
                }
                try {
                    framing.read(data.content(), (message, compressed) -> {
                        if (done) {
                            message.release();
                        } else {
                            listener.onMessage(message);
                        }
                    });
                } catch (GrpcException e) {
                    end(e.status(), e.description());
                    return;
                }
                if (end) {
                    end(GrpcStatus.INTERNAL, "response ended without trailers");
                }
            } else if (msg instanceof Http2HeadersFrame frame) {
                headers(frame);
            } else if (msg instanceof Http2ResetFrame reset) {
                // A server that keeps the deadline too may cancel the stream a moment before our own timer fires.
                GrpcStatus status = statusOf(reset.error());
                end(status == GrpcStatus.CANCELLED && deadlinePassed() ? GrpcStatus.DEADLINE_EXCEEDED : status,
                        "stream reset by the server: " + reset.error());
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            end(GrpcStatus.UNAVAILABLE, "stream closed before the call ended");
            ctx.fireChannelInactive();
        }
    }

    private void headers(Http2HeadersFrame frame) {
        Http2Headers headers = frame.headers();
        if (!responseHeadersSeen) {
            responseHeadersSeen = true;
            CharSequence status = headers.status();
            if (status == null || !AsciiString.contentEquals("200", status)) {
                // gRPC over HTTP/2 (doc/http-grpc-status-mapping.md): an HTTP error is the call's status.
                if (headers.get(GrpcServerStream.GRPC_STATUS) == null) {
                    end(statusOfHttp(status), "HTTP status " + status);
                    return;
                }
            } else if (!GrpcServerStream.isGrpc(headers)) {
                end(GrpcStatus.UNKNOWN, "content-type " + headers.get(GrpcServerStream.CONTENT_TYPE)
                        + " is not application/grpc");
                return;
            }
            if (!frame.endStream()) {
                return;
            }
            // Trailers-only: the status is in these headers.
        } else if (!frame.endStream()) {
            end(GrpcStatus.INTERNAL, "trailers without END_STREAM");
            return;
        }
        if (!framing.isIdle()) {
            end(GrpcStatus.INTERNAL, "response ended inside a message");
            return;
        }
        CharSequence message = headers.get(GrpcServerStream.GRPC_MESSAGE);
        end(GrpcStatus.parse(headers.get(GrpcServerStream.GRPC_STATUS)),
                message == null ? null : GrpcStatusMessage.decode(message));
    }

    /** doc/PROTOCOL-HTTP2.md, "Errors": the status a RST_STREAM code means to the client. */
    static GrpcStatus statusOf(Http2Error error) {
        if (error == null) {
            return GrpcStatus.INTERNAL;
        }
        return switch (error) {
            case REFUSED_STREAM -> GrpcStatus.UNAVAILABLE;
            case CANCEL -> GrpcStatus.CANCELLED;
            case ENHANCE_YOUR_CALM -> GrpcStatus.RESOURCE_EXHAUSTED;
            case INADEQUATE_SECURITY -> GrpcStatus.PERMISSION_DENIED;
            default -> GrpcStatus.INTERNAL;
        };
    }

    /** doc/http-grpc-status-mapping.md: the status an HTTP status without {@code grpc-status} means. */
    static GrpcStatus statusOfHttp(CharSequence status) {
        if (status == null) {
            return GrpcStatus.INTERNAL;
        }
        return switch (status.toString()) {
            case "400" -> GrpcStatus.INTERNAL;
            case "401" -> GrpcStatus.UNAUTHENTICATED;
            case "403" -> GrpcStatus.PERMISSION_DENIED;
            case "404" -> GrpcStatus.UNIMPLEMENTED;
            case "429", "502", "503", "504" -> GrpcStatus.UNAVAILABLE;
            default -> GrpcStatus.UNKNOWN;
        };
    }
}
