package io.weir.handler.codec.http2;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.WritabilityInputPause;
import io.weir.handler.codec.http.DefaultFullHttpRequest;
import io.weir.handler.codec.http.DefaultFullHttpResponse;
import io.weir.handler.codec.http.DefaultHttpContent;
import io.weir.handler.codec.http.DefaultHttpHeaders;
import io.weir.handler.codec.http.DefaultHttpRequest;
import io.weir.handler.codec.http.DefaultHttpResponse;
import io.weir.handler.codec.http.DefaultLastHttpContent;
import io.weir.handler.codec.http.FullHttpMessage;
import io.weir.handler.codec.http.HttpContent;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpHeaderValues;
import io.weir.handler.codec.http.HttpHeaders;
import io.weir.handler.codec.http.HttpMessage;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.HttpResponse;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpVersion;
import io.weir.handler.codec.http.LastHttpContent;
import io.weir.util.AsciiString;
import io.weir.util.ReferenceCountUtil;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * Translates between one stream's HTTP/2 frames and HTTP/1.1 message objects, so that HTTP/1.1 handlers
 * ({@code HttpObjectAggregator}, {@code HttpContentCompressor}, routes written for {@code FullHttpRequest}) serve
 * HTTP/2 streams unchanged. Put it first in each {@link Http2StreamChannel}'s pipeline.
 *
 * <p><b>Server side, inbound.</b> HEADERS become an {@link HttpRequest} (a {@code FullHttpRequest} when they end the
 * stream): {@code :method}, {@code :path} as the URI ({@code :authority} for CONNECT), {@code :authority} as
 * {@code Host} unless a Host field was sent, the {@code cookie} fields joined with "; " (RFC 9113 §8.2.3), and
 * {@code transfer-encoding: chunked} when the request has a body and no content-length (so HTTP/1.1 handlers know a
 * body follows). DATA becomes {@link HttpContent}; the DATA or trailers that end the stream become
 * {@link LastHttpContent} (trailers as its trailing headers). A reset arrives as an exception
 * ({@link Http2Exception} with the peer's code) and the child closes.
 *
 * <p><b>Server side, outbound.</b> An {@link HttpResponse} becomes HEADERS with {@code :status} and lower-case names,
 * without the connection-specific fields of RFC 9113 §8.2.2 (Connection and the fields it names, Keep-Alive,
 * Proxy-Connection, Transfer-Encoding, Upgrade, TE other than "trailers"); content becomes DATA; the last content
 * ends the stream (with its trailers as HEADERS). The client side is the mirror image (requests out, responses in,
 * {@code Host} as {@code :authority}).
 *
 * <p><b>Backpressure (server side).</b> While the stream channel is not writable (the stream's or the connection's
 * window is closed, the connection's output bound is exceeded, or its socket does not drain) it reads no further
 * frame, as {@code HttpServerCodec} does on HTTP/1.1: the request body stays unconsumed, so the client's own
 * window stops it, and a handler that answers each piece of a body (an echo, a proxy) cannot queue without bound.
 * Reading resumes when the channel is writable again.
 *
 * <p>Buffers move from the frames to the messages and back without copies; whoever receives a message releases it.
 * Only used from the channel's event loop.
 */
public final class Http2StreamFrameToHttpObjectCodec implements ChannelHandler {

    private static final AsciiString TRAILERS = AsciiString.cached("trailers");

    private final boolean server;
    private final String scheme;
    private boolean headersDone;
    /** Server side: no frame is read while the stream channel is unwritable. */
    private final WritabilityInputPause pause = new WritabilityInputPause();
    private final Runnable resumeTask = this::resume;
    private ChannelHandlerContext pausedCtx;

    /** A server-side codec. */
    public Http2StreamFrameToHttpObjectCodec() {
        this(true, "http");
    }

    /**
     * @param server true on a server (requests in, responses out)
     * @param scheme the {@code :scheme} a client sends ({@code "http"} or {@code "https"}); unused on a server
     */
    public Http2StreamFrameToHttpObjectCodec(boolean server, String scheme) {
        this.server = server;
        this.scheme = scheme;
    }

    // ---------------------------------------------------------------- inbound

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        try {
            translateInbound(ctx, msg);
        } finally {
            if (server && !pause.isPaused() && !ctx.channel().isWritable()) {
                pausedCtx = ctx;
                pause.pause(ctx);
            }
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        pause.scheduleResume(ctx, resumeTask);
        ctx.fireChannelWritabilityChanged();
    }

    /** The stream channel delivers the frames it kept once auto-read is back on: nothing to hand on here. */
    private void resume() {
        if (pause.beginResume(pausedCtx)) {
            pause.endResume(pausedCtx);
        }
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (!pause.holdRead()) {
            ctx.read();
        }
    }

    private void translateInbound(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof Http2HeadersFrame frame) {
            headersRead(ctx, frame);
        } else if (msg instanceof Http2DataFrame data) {
            ByteBuf content = data.content();
            ctx.fireChannelRead(data.endStream() ? new DefaultLastHttpContent(content)
                    : new DefaultHttpContent(content));
        } else if (msg instanceof Http2ResetFrame reset) {
            Http2Error error = reset.error();
            ctx.fireExceptionCaught(new Http2Exception(error == null ? Http2Error.INTERNAL_ERROR : error,
                    Math.max(1, reset.stream() == null ? 1 : reset.stream().id()),
                    "stream reset by the peer with code " + reset.errorCode(), false));
        } else if (!(msg instanceof Http2PriorityUpdateFrame)) {
            // A priority signal has no HTTP/1 form; the stream's urgency() already reflects it.
            ctx.fireChannelRead(msg);
        }
    }

    private void headersRead(ChannelHandlerContext ctx, Http2HeadersFrame frame) {
        Http2Headers h2 = frame.headers();
        if (headersDone) {
            // Trailers (RFC 9113 §8.1): they end the stream.
            DefaultLastHttpContent last = new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
            copyRegular(h2, last.trailingHeaders());
            ctx.fireChannelRead(last);
            return;
        }
        CharSequence status = h2.status();
        if (!server && status != null && status.length() == 3 && status.charAt(0) == '1') {
            ctx.fireChannelRead(new DefaultHttpResponse(HttpVersion.HTTP_1_1,
                    HttpResponseStatus.valueOf(parseStatus(status)), toHttpHeaders(h2)));
            return;
        }
        headersDone = true;
        HttpHeaders headers = toHttpHeaders(h2);
        HttpMessage message;
        if (server) {
            CharSequence method = h2.method();
            CharSequence path = h2.path();
            String uri = path != null ? path.toString() : h2.authority() != null ? h2.authority().toString() : "/";
            HttpMethod m = HttpMethod.valueOf(method.toString());
            if (frame.endStream()) {
                DefaultFullHttpRequest full = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, m, uri,
                        Unpooled.EMPTY_BUFFER);
                full.headers().set(headers);
                message = full;
            } else {
                message = new DefaultHttpRequest(HttpVersion.HTTP_1_1, m, uri, headers);
            }
            CharSequence authority = h2.authority();
            if (authority != null && !message.headers().contains(HttpHeaderNames.HOST)) {
                message.headers().set(HttpHeaderNames.HOST, authority);
            }
        } else {
            HttpResponseStatus s = HttpResponseStatus.valueOf(parseStatus(status));
            if (frame.endStream()) {
                DefaultFullHttpResponse full = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, s,
                        Unpooled.EMPTY_BUFFER);
                full.headers().set(headers);
                message = full;
            } else {
                message = new DefaultHttpResponse(HttpVersion.HTTP_1_1, s, headers);
            }
        }
        if (!frame.endStream() && !message.headers().contains(HttpHeaderNames.CONTENT_LENGTH)) {
            message.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        }
        ctx.fireChannelRead(message);
    }

    private static int parseStatus(CharSequence status) {
        if (status == null || status.length() != 3) {
            return 500;
        }
        return (status.charAt(0) - '0') * 100 + (status.charAt(1) - '0') * 10 + (status.charAt(2) - '0');
    }

    private static HttpHeaders toHttpHeaders(Http2Headers h2) {
        DefaultHttpHeaders headers = new DefaultHttpHeaders(false);
        copyRegular(h2, headers);
        return headers;
    }

    private static void copyRegular(Http2Headers h2, HttpHeaders out) {
        StringBuilder cookies = null;
        for (int i = h2.pseudoHeaderCount(); i < h2.size(); i++) {
            CharSequence name = h2.name(i);
            if (HttpHeaderNames.COOKIE.contentEquals(name)) {
                // RFC 9113 §8.2.3: split cookie fields are joined with "; " for HTTP/1.1.
                if (cookies == null) {
                    cookies = new StringBuilder(h2.value(i));
                } else {
                    cookies.append("; ").append(h2.value(i));
                }
                continue;
            }
            out.add(name, h2.value(i));
        }
        if (cookies != null) {
            out.set(HttpHeaderNames.COOKIE, cookies.toString());
        }
    }

    // ---------------------------------------------------------------- outbound

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof HttpMessage) && !(msg instanceof HttpContent)) {
            ctx.write(msg, promise);
            return;
        }
        try {
            if (msg instanceof HttpMessage message) {
                boolean full = message instanceof FullHttpMessage;
                boolean informational = message instanceof HttpResponse r && r.status().code() < 200;
                boolean emptyFull = full && !((FullHttpMessage) message).content().isReadable()
                        && ((FullHttpMessage) message).trailingHeaders().isEmpty();
                Http2Headers headers = toHttp2Headers(message);
                ctx.write(new Http2HeadersFrame(stream(ctx), headers, emptyFull && !informational),
                        full && !emptyFull ? ctx.newPromise() : promise);
                if (emptyFull) {
                    ((FullHttpMessage) message).release();
                    return;
                }
                if (!full) {
                    return;
                }
            }
            writeContent(ctx, (HttpContent) msg, promise);
        } finally {
            if (msg instanceof HttpMessage && !(msg instanceof HttpContent)) {
                ReferenceCountUtil.release(msg);
            }
        }
    }

    private static void writeContent(ChannelHandlerContext ctx, HttpContent content, ChannelPromise promise) {
        Http2FrameStream stream = stream(ctx);
        if (!(content instanceof LastHttpContent last)) {
            ctx.write(new Http2DataFrame(stream, content.content(), false, 0), promise);
            return;
        }
        HttpHeaders trailers = last.trailingHeaders();
        if (trailers.isEmpty()) {
            ctx.write(new Http2DataFrame(stream, content.content(), true, 0), promise);
            return;
        }
        if (content.content().isReadable()) {
            ctx.write(new Http2DataFrame(stream, content.content(), false, 0), ctx.newPromise());
        } else {
            content.content().release();
        }
        Http2Headers h2 = new Http2Headers();
        copyFields(trailers, h2);
        ctx.write(new Http2HeadersFrame(stream, h2, true), promise);
    }

    /**
     * The stream of the channel this codec is in, which the frames it writes are bound to (a frame written without
     * one is copied onto it by the stream channel, an object per frame); null outside a stream channel.
     */
    private static Http2FrameStream stream(ChannelHandlerContext ctx) {
        return ctx.channel() instanceof Http2StreamChannel channel ? channel.stream() : null;
    }

    private Http2Headers toHttp2Headers(HttpMessage message) {
        Http2Headers h2 = new Http2Headers(message.headers().size() + 4, true);
        if (message instanceof HttpResponse response) {
            h2.status(AsciiString.of(Integer.toString(response.status().code())));
        } else if (message instanceof HttpRequest request) {
            h2.method(request.method().name());
            String host = request.headers().get(HttpHeaderNames.HOST);
            if (request.method().equals(HttpMethod.CONNECT)) {
                h2.authority(host != null ? host : request.uri());
            } else {
                h2.scheme(scheme);
                h2.path(request.uri().isEmpty() ? "/" : request.uri());
                if (host != null) {
                    h2.authority(host);
                }
            }
        }
        copyFields(message.headers(), h2);
        return h2;
    }

    /** Copies fields with lower-case names, leaving out those RFC 9113 §8.2.2 forbids. */
    private static void copyFields(HttpHeaders from, Http2Headers to) {
        String connection = from.get(HttpHeaderNames.CONNECTION);
        Iterator<Map.Entry<CharSequence, CharSequence>> it = from.iteratorCharSequence();
        while (it.hasNext()) {
            Map.Entry<CharSequence, CharSequence> e = it.next();
            CharSequence name = lowerCase(e.getKey());
            if (isConnectionSpecific(name, e.getValue(), connection)) {
                continue;
            }
            to.add(name, e.getValue());
        }
    }

    private static CharSequence lowerCase(CharSequence name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                return name.toString().toLowerCase(Locale.ROOT);
            }
        }
        return name;
    }

    private static boolean isConnectionSpecific(CharSequence name, CharSequence value, String connection) {
        if (HttpHeaderNames.CONNECTION.contentEquals(name) || HttpHeaderNames.KEEP_ALIVE.contentEquals(name)
                || HttpHeaderNames.PROXY_CONNECTION.contentEquals(name)
                || HttpHeaderNames.TRANSFER_ENCODING.contentEquals(name)
                || HttpHeaderNames.UPGRADE.contentEquals(name) || HttpHeaderNames.HOST.contentEquals(name)) {
            return true;
        }
        if (HttpHeaderNames.TE.contentEquals(name)) {
            return !TRAILERS.contentEqualsIgnoreCase(value);
        }
        if (connection != null) {
            // Fields named by Connection are hop-by-hop too (RFC 9110 §7.6.1).
            for (String token : connection.split(",")) {
                if (token.trim().equalsIgnoreCase(name.toString())) {
                    return true;
                }
            }
        }
        return false;
    }
}
