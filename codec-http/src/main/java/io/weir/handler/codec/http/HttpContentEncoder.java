package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.EncoderException;
import io.weir.handler.codec.compression.ContentEncoder;
import io.weir.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;

/**
 * Compresses HTTP response bodies chosen per request: it remembers each request's {@code Accept-Encoding}, and
 * when the matching response is written asks {@link #beginEncode} for an encoder, then compresses the body chunk
 * by chunk as it is written, never holding more than one chunk.
 *
 * <p>Left as they are: 1xx informational responses (a {@code 101} ends all processing on the connection),
 * {@code 204} and {@code 304} responses, responses to {@code HEAD}, responses that already carry a
 * {@code Content-Encoding}, and empty full responses. A compressed {@link FullHttpResponse} stays one full
 * response with the compressed {@code Content-Length}; a streamed response loses its {@code Content-Length} and
 * is sent {@code Transfer-Encoding: chunked} (HTTP/1.1) or delimited by closing the connection (HTTP/1.0).
 * Responses whose encoding could depend on {@code Accept-Encoding} get {@code Vary: Accept-Encoding}.
 *
 * <p>If an encoder fails mid-body, the write fails, the rest of that body is dropped and the connection is
 * closed, since the client has been promised an encoded body that can no longer be completed.
 *
 * <p>Place it after the server codec. Only called from the channel's event loop; one instance per channel.
 */
public abstract class HttpContentEncoder implements ChannelHandler {
    /** What {@link #beginEncode} chose: the {@code Content-Encoding} to announce and the encoder producing it. */
    public record Result(String targetContentEncoding, ContentEncoder encoder) {
        /** Validates the arguments. */
        public Result {
            Objects.requireNonNull(targetContentEncoding, "targetContentEncoding");
            Objects.requireNonNull(encoder, "encoder");
        }
    }

    private enum State { AWAIT_HEADERS, ENCODE, PASS_THROUGH, DISCARD, UPGRADED }

    private record Pending(CharSequence acceptEncoding, boolean head) {
    }

    private static final Pending NO_REQUEST = new Pending(null, false);

    private final ArrayDeque<Pending> requests = new ArrayDeque<>(2);
    private State state = State.AWAIT_HEADERS;
    private ContentEncoder encoder;

    /** For subclasses. */
    protected HttpContentEncoder() {
    }

    /**
     * Chooses how to encode {@code response} for a request that sent {@code acceptEncoding} (possibly
     * {@code null}), or returns {@code null} to send it as it is. Called once per response, before any of its
     * body; may change the response's headers.
     */
    protected abstract Result beginEncode(HttpResponse response, CharSequence acceptEncoding) throws Exception;

    /**
     * Whether a full response is worth encoding at all; by default any with content. A {@code false} also keeps
     * {@code Vary: Accept-Encoding} off, as the response would never be encoded.
     */
    protected boolean shouldEncode(FullHttpResponse response) {
        return response.content().isReadable();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest request) {
            CharSequence accept = request.headers().getCharSequence(HttpHeaderNames.ACCEPT_ENCODING);
            requests.add(new Pending(accept, HttpMethod.HEAD.equals(request.method())));
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        switch (state) {
            case UPGRADED -> ctx.write(msg, promise);
            case PASS_THROUGH -> {
                if (msg instanceof LastHttpContent) {
                    state = State.AWAIT_HEADERS;
                }
                ctx.write(msg, promise);
            }
            case DISCARD -> {
                // The head announced an encoding the body can no longer honour: nothing more of it may go out.
                if (msg instanceof HttpContent) {
                    if (msg instanceof LastHttpContent) {
                        state = State.AWAIT_HEADERS;
                    }
                    ReferenceCountUtil.release(msg);
                    promise.tryFailure(new EncoderException("response body dropped after a compression failure"));
                } else {
                    ctx.write(msg, promise);
                }
            }
            case ENCODE -> {
                if (msg instanceof HttpContent content) {
                    encodeContent(ctx, content, promise);
                } else {
                    ctx.write(msg, promise);
                }
            }
            case AWAIT_HEADERS -> {
                if (msg instanceof HttpResponse response) {
                    writeHead(ctx, response, promise);
                } else {
                    ctx.write(msg, promise);
                }
            }
            default -> throw new IllegalStateException(state.name());
        }
    }

    private void writeHead(ChannelHandlerContext ctx, HttpResponse response, ChannelPromise promise)
            throws Exception {
        int code = response.status().code();
        if (code == 101) {
            requests.poll();
            state = State.UPGRADED;
            ctx.write(response, promise);
            return;
        }
        if (code < 200) {
            ctx.write(response, promise);
            return;
        }
        Pending request = requests.poll();
        if (request == null) {
            request = NO_REQUEST;
        }
        boolean full = response instanceof FullHttpResponse;
        if (request.head || code == 204 || code == 304 || isEncoded(response)
                || full && !shouldEncode((FullHttpResponse) response)) {
            passThrough(ctx, response, promise);
            return;
        }
        addVaryAcceptEncoding(response.headers());
        Result result = beginEncode(response, request.acceptEncoding);
        if (result == null) {
            passThrough(ctx, response, promise);
            return;
        }
        encoder = result.encoder();
        response.headers().set(HttpHeaderNames.CONTENT_ENCODING, result.targetContentEncoding());
        if (full) {
            encodeFull(ctx, (FullHttpResponse) response, promise);
            return;
        }
        response.headers().remove(HttpHeaderNames.CONTENT_LENGTH);
        if (response.protocolVersion().equals(HttpVersion.HTTP_1_0)) {
            HttpUtil.setKeepAlive(response, false);
        } else {
            HttpUtil.setTransferEncodingChunked(response, true);
        }
        state = State.ENCODE;
        if (response instanceof HttpContent content) {
            // A non-full response carrying content: send the head alone, then the content encoded.
            HttpResponse head = new DefaultHttpResponse(response.protocolVersion(), response.status(),
                    response.headers());
            ctx.write(head, ctx.voidPromise());
            encodeContent(ctx, content, promise);
        } else {
            ctx.write(response, promise);
        }
    }

    private void passThrough(ChannelHandlerContext ctx, HttpResponse response, ChannelPromise promise) {
        state = response instanceof LastHttpContent ? State.AWAIT_HEADERS : State.PASS_THROUGH;
        ctx.write(response, promise);
    }

    private void encodeFull(ChannelHandlerContext ctx, FullHttpResponse response, ChannelPromise promise) {
        ByteBuf body;
        try {
            ByteBuf first = encoder.encode(response.content(), ctx.alloc());
            ByteBuf last;
            try {
                last = encoder.finish(ctx.alloc());
            } catch (Throwable t) {
                first.release();
                throw t;
            }
            body = concat(ctx, first, last);
        } catch (Throwable t) {
            closeEncoder();
            response.release();
            promise.tryFailure(t);
            return;
        }
        closeEncoder();
        FullHttpResponse encoded = response.replace(body);
        response.release();
        HttpUtil.setContentLength(encoded, body.readableBytes());
        encoded.headers().remove(HttpHeaderNames.TRANSFER_ENCODING);
        ctx.write(encoded, promise);
    }

    private static ByteBuf concat(ChannelHandlerContext ctx, ByteBuf first, ByteBuf last) {
        if (!last.isReadable()) {
            last.release();
            return first;
        }
        if (first.writableBytes() >= last.readableBytes()) {
            first.writeBytes(last);
            last.release();
            return first;
        }
        return ctx.alloc().compositeBuffer(2).addComponent(true, first).addComponent(true, last);
    }

    private void encodeContent(ChannelHandlerContext ctx, HttpContent content, ChannelPromise promise) {
        boolean last = content instanceof LastHttpContent;
        ByteBuf out;
        try {
            out = encoder.encode(content.content(), ctx.alloc());
            if (last) {
                ByteBuf tail;
                try {
                    tail = encoder.finish(ctx.alloc());
                } catch (Throwable t) {
                    out.release();
                    throw t;
                }
                out = concat(ctx, out, tail);
            }
        } catch (Throwable t) {
            // Part of the encoded body may be out already; the response cannot be completed, so the
            // connection is closed rather than left waiting for a body that will never end.
            closeEncoder();
            state = last ? State.AWAIT_HEADERS : State.DISCARD;
            ReferenceCountUtil.release(content);
            promise.tryFailure(t);
            ctx.close();
            return;
        }
        if (last) {
            LastHttpContent lastIn = (LastHttpContent) content;
            DefaultLastHttpContent lastOut = new DefaultLastHttpContent(out);
            lastOut.trailingHeaders().set(lastIn.trailingHeaders());
            content.release();
            closeEncoder();
            state = State.AWAIT_HEADERS;
            ctx.write(lastOut, promise);
        } else {
            content.release();
            if (out.isReadable()) {
                ctx.write(new DefaultHttpContent(out), promise);
            } else {
                // An empty chunk would end a chunked body early: complete the write without sending anything.
                out.release();
                promise.trySuccess();
            }
        }
    }

    private static boolean isEncoded(HttpResponse response) {
        String ce = response.headers().get(HttpHeaderNames.CONTENT_ENCODING);
        return ce != null && !ce.trim().equalsIgnoreCase(HttpHeaderValues.IDENTITY.toString());
    }

    private static void addVaryAcceptEncoding(HttpHeaders headers) {
        List<String> vary = headers.getAll(HttpHeaderNames.VARY);
        for (int i = 0; i < vary.size(); i++) {
            if (listsVaryAcceptEncoding(vary.get(i))) {
                return;
            }
        }
        headers.add(HttpHeaderNames.VARY, HttpHeaderNames.ACCEPT_ENCODING);
    }

    /** Whether a Vary field value already covers Accept-Encoding (names it, or is "*"). */
    private static boolean listsVaryAcceptEncoding(String value) {
        String name = HttpHeaderNames.ACCEPT_ENCODING.toString();
        int start = 0;
        int length = value.length();
        while (start < length) {
            int end = value.indexOf(',', start);
            if (end < 0) {
                end = length;
            }
            int s = start;
            int e = end;
            while (s < e && (value.charAt(s) == ' ' || value.charAt(s) == '\t')) {
                s++;
            }
            while (e > s && (value.charAt(e - 1) == ' ' || value.charAt(e - 1) == '\t')) {
                e--;
            }
            if (e - s == 1 && value.charAt(s) == '*'
                    || e - s == name.length() && value.regionMatches(true, s, name, 0, name.length())) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    private void closeEncoder() {
        if (encoder != null) {
            encoder.close();
            encoder = null;
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        closeEncoder();
        requests.clear();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        closeEncoder();
        ctx.fireChannelInactive();
    }
}
