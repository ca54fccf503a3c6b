package io.weir.handler.codec.http;

import io.weir.buffer.ByteBuf;
import io.weir.buffer.CompositeByteBuf;
import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.DecoderResult;
import io.weir.handler.codec.TooLongFrameException;
import io.weir.util.ReferenceCountUtil;

/**
 * Turns a decoded {@link HttpMessage} and its {@link HttpContent}s into one {@link FullHttpRequest} or
 * {@link FullHttpResponse}, whose content is at most {@code maxContentLength} bytes.
 *
 * <ul>
 *   <li><b>Limit.</b> A request whose {@code Content-Length} exceeds the limit is refused before any of its body
 *       is read, and one whose body grows past the limit is refused as soon as it does: the peer gets
 *       {@code 413 Content Too Large} with {@code Connection: close} and the connection is closed after it is
 *       written. A response over the limit (client side) fires a {@link TooLongFrameException}. In both cases the
 *       rest of that message is discarded and nothing is passed on for it.</li>
 *   <li><b>Expect: 100-continue</b> (RFC 9110 §10.1.1). {@link #newContinueResponse} decides: by default
 *       {@code 100 Continue} if the announced length fits, {@code 413} (and close) if it does not, and
 *       {@code 417 Expectation Failed} for any other expectation. After a 417 the request's body is discarded and
 *       the connection stays open unless {@code closeOnExpectationFailed}. The {@code Expect} header is removed
 *       from an accepted request.</li>
 *   <li><b>Decoder failures</b> pass through: a message whose {@link DecoderResult} failed is passed on at once as
 *       a full message with empty content and the same failed result, and its remaining content is dropped.</li>
 * </ul>
 * The aggregated message's content is a composite of the received buffers; {@code Transfer-Encoding: chunked}
 * is removed and {@code Content-Length} set to the aggregated size when it was missing. The receiver of the full
 * message owns and releases it.
 *
 * <p>Only called on the channel's event loop; one instance per channel (not {@link ChannelHandler.Sharable}).
 */
public class HttpObjectAggregator implements ChannelHandler {
    /** How many received buffers the composite holds before consolidating them. */
    private static final int MAX_COMPOSITE_COMPONENTS = 1024;

    private final int maxContentLength;
    private final boolean closeOnExpectationFailed;

    /** Head of the message being aggregated, or null. */
    private HttpMessage current;
    private CompositeByteBuf content;
    /** Drop content until the next LastHttpContent (rejected, failed or oversized message). */
    private boolean discarding;

    /**
     * An aggregator for messages of at most {@code maxContentLength} content bytes that keeps the connection
     * open after answering {@code 417}.
     *
     * @throws IllegalArgumentException if {@code maxContentLength} is negative
     */
    public HttpObjectAggregator(int maxContentLength) {
        this(maxContentLength, false);
    }

    /**
     * An aggregator for messages of at most {@code maxContentLength} content bytes.
     *
     * @param closeOnExpectationFailed whether to close the connection after answering {@code 417}
     * @throws IllegalArgumentException if {@code maxContentLength} is negative
     */
    public HttpObjectAggregator(int maxContentLength, boolean closeOnExpectationFailed) {
        if (maxContentLength < 0) {
            throw new IllegalArgumentException("maxContentLength must be >= 0: " + maxContentLength);
        }
        this.maxContentLength = maxContentLength;
        this.closeOnExpectationFailed = closeOnExpectationFailed;
    }

    /** The largest content, in bytes, of an aggregated message. */
    public final int maxContentLength() {
        return maxContentLength;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpMessage start) {
            onMessageStart(ctx, start);
        } else if (msg instanceof HttpContent c) {
            onContent(ctx, c);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private void onMessageStart(ChannelHandlerContext ctx, HttpMessage start) {
        // A new head ends whatever came before it; a well-behaved decoder never leaves a message unfinished.
        releaseCurrent();
        discarding = false;
        if (start instanceof FullHttpMessage) {
            ctx.fireChannelRead(start);
            return;
        }
        if (start.decoderResult().isFailure()) {
            ReferenceCountUtil.release(start);
            FullHttpMessage failed = toFull(start, Unpooled.EMPTY_BUFFER, new DefaultHttpHeaders(false));
            failed.setDecoderResult(start.decoderResult());
            discarding = true;
            ctx.fireChannelRead(failed);
            return;
        }
        HttpResponse interim = newContinueResponse(start, maxContentLength);
        if (interim != null) {
            int code = interim.status().code();
            if (code == HttpResponseStatus.CONTINUE.code()) {
                ctx.writeAndFlush(interim).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
                start.headers().remove(HttpHeaderNames.EXPECT);
            } else {
                boolean close = closeOnExpectationFailed || code == HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE.code();
                if (close) {
                    HttpUtil.setKeepAlive(interim, false);
                }
                ctx.writeAndFlush(interim).addListener(close ? ChannelFutureListener.CLOSE
                        : ChannelFutureListener.CLOSE_ON_FAILURE);
                ReferenceCountUtil.release(start);
                discarding = true;
                return;
            }
        } else if (start instanceof HttpRequest && isOversized(start)) {
            // Only requests are judged by their announced length: a response to HEAD, or a 304, announces a
            // length it does not carry, so responses are measured as their content arrives.
            onOversized(ctx, start);
            ReferenceCountUtil.release(start);
            discarding = true;
            return;
        }
        HttpUtil.setTransferEncodingChunked(start, false);
        current = start;
        content = ctx.alloc().compositeBuffer(MAX_COMPOSITE_COMPONENTS);
    }

    private boolean isOversized(HttpMessage start) {
        try {
            return HttpUtil.getContentLength(start, -1L) > maxContentLength;
        } catch (NumberFormatException e) {
            // A malformed length is the decoder's to reject; here it is not a reason to refuse.
            return false;
        }
    }

    private void onContent(ChannelHandlerContext ctx, HttpContent chunk) {
        boolean last = chunk instanceof LastHttpContent;
        if (current == null) {
            chunk.release();
            if (discarding && last) {
                discarding = false;
            }
            return;
        }
        ByteBuf data = chunk.content();
        if (content.readableBytes() > maxContentLength - data.readableBytes()) {
            HttpMessage start = current;
            chunk.release();
            current = null;
            content.release();
            content = null;
            onOversized(ctx, start);
            ReferenceCountUtil.release(start);
            discarding = !last;
            return;
        }
        if (data.isReadable()) {
            content.addComponent(true, data.retain());
        }
        DecoderResult result = chunk.decoderResult();
        if (result.isFailure()) {
            FullHttpMessage failed = finish(new DefaultHttpHeaders(false));
            failed.setDecoderResult(result);
            chunk.release();
            discarding = !last;
            ctx.fireChannelRead(failed);
            return;
        }
        if (last) {
            HttpHeaders trailers = ((LastHttpContent) chunk).trailingHeaders();
            FullHttpMessage full = finish(trailers == EmptyHttpHeaders.INSTANCE ? new DefaultHttpHeaders(false)
                    : trailers);
            chunk.release();
            if (!HttpUtil.isContentLengthSet(full)) {
                full.headers().set(HttpHeaderNames.CONTENT_LENGTH, Integer.toString(full.content().readableBytes()));
            }
            ctx.fireChannelRead(full);
        } else {
            chunk.release();
        }
    }

    private FullHttpMessage finish(HttpHeaders trailers) {
        FullHttpMessage full = toFull(current, content, trailers);
        current = null;
        content = null;
        return full;
    }

    private static FullHttpMessage toFull(HttpMessage start, ByteBuf body, HttpHeaders trailers) {
        if (start instanceof HttpRequest req) {
            return new DefaultFullHttpRequest(req.protocolVersion(), req.method(), req.uri(), body, req.headers(),
                    trailers);
        }
        if (start instanceof HttpResponse res) {
            return new DefaultFullHttpResponse(res.protocolVersion(), res.status(), body, res.headers(), trailers);
        }
        throw new IllegalStateException("neither a request nor a response: " + start.getClass().getName());
    }

    /**
     * Called when {@code oversized}'s content exceeds the limit (announced or received). By default a request
     * is answered with {@code 413} and {@code Connection: close}, then the connection closes; a response fires
     * a {@link TooLongFrameException}. {@code oversized} is released by the caller afterwards.
     */
    protected void onOversized(ChannelHandlerContext ctx, HttpMessage oversized) {
        if (oversized instanceof HttpRequest) {
            FullHttpResponse tooLarge = new DefaultFullHttpResponse(oversized.protocolVersion(),
                    HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
            tooLarge.headers().set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO);
            tooLarge.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(tooLarge).addListener(ChannelFutureListener.CLOSE);
        } else {
            ctx.fireExceptionCaught(new TooLongFrameException("HTTP content exceeds " + maxContentLength + " bytes"));
        }
    }

    /**
     * The interim or rejecting response owed to {@code start}'s {@code Expect} header, or {@code null} if none
     * is owed and aggregation should simply go on. Override to change the policy (for example to authorise an
     * upload before inviting its body). Default: {@link HttpServerExpectContinueHandler#expectationResponse}, the
     * rules streaming handlers share: {@code 417} for an expectation other than {@code 100-continue}; for
     * {@code 100-continue}, {@code 413} if the announced length exceeds {@code maxContentLength}, else
     * {@code 100 Continue}. A returned status other than 100 rejects the request: it is written, the request's
     * body discarded, and the request not passed on.
     */
    protected HttpResponse newContinueResponse(HttpMessage start, int maxContentLength) {
        return HttpServerExpectContinueHandler.expectationResponse(start, maxContentLength);
    }

    private void releaseCurrent() {
        if (current != null) {
            ReferenceCountUtil.release(current);
            current = null;
        }
        if (content != null) {
            content.release();
            content = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseCurrent();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseCurrent();
    }
}
