package io.weir.handler.codec.http;

import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.util.ReferenceCountUtil;

/**
 * Answers {@code Expect: 100-continue} (RFC 9110 §10.1.1) for servers that stream request bodies instead of
 * aggregating them, by the same rules as {@link HttpObjectAggregator} (see {@link #expectationResponse}). Place it
 * after the server codec, ahead of the streaming handler; a streaming handler that serves only some paths may call
 * {@link #expectationResponse} itself instead.
 *
 * <p>For an HTTP/1.1 request expecting {@code 100-continue}:
 * <ul>
 * <li>a declared Content-Length above {@linkplain #HttpServerExpectContinueHandler(long) the limit} is answered with
 *     {@code 413} and {@code Connection: close}, without reading the body, and the connection is closed after it
 *     (gracefully, by {@link HttpServerCodec}, should the client send the body anyway);</li>
 * <li>otherwise {@link #acceptMessage} supplies the interim response ({@code 100 Continue} by default), which is
 *     written at once; the {@code Expect} header is removed and the request passed on;</li>
 * <li>if {@link #acceptMessage} returns {@code null}, or the request carries an expectation other than
 *     {@code 100-continue}, {@link #rejectResponse} ({@code 417 Expectation Failed}) is written instead.</li>
 * </ul>
 * A rejected request and its content are not passed on.
 *
 * <p>Only called on the channel's event loop; one instance per channel.
 */
public class HttpServerExpectContinueHandler implements ChannelHandler {
    private final long maxContentLength;
    /** Drop content until the end of a rejected request. */
    private boolean discarding;

    /** A handler that accepts every {@code 100-continue} expectation, whatever the length declared. */
    public HttpServerExpectContinueHandler() {
        this(Long.MAX_VALUE);
    }

    /**
     * A handler that answers {@code 413} to an expectation whose declared Content-Length is above
     * {@code maxContentLength} bytes, and accepts the others.
     *
     * @throws IllegalArgumentException if {@code maxContentLength} is negative
     */
    public HttpServerExpectContinueHandler(long maxContentLength) {
        if (maxContentLength < 0) {
            throw new IllegalArgumentException("maxContentLength: " + maxContentLength + " (expected: >= 0)");
        }
        this.maxContentLength = maxContentLength;
    }

    /**
     * The answer owed to {@code request}'s {@code Expect} header under a limit of {@code maxContentLength} body
     * bytes, or {@code null} if it has none: {@code 417 Expectation Failed} for an expectation other than
     * {@code 100-continue}; for {@code 100-continue}, {@code 413 Content Too Large} with {@code Connection: close}
     * if the declared Content-Length is above the limit (a malformed length is the decoder's to reject), else
     * {@code 100 Continue}. The rejections carry {@code Content-Length: 0}. The caller owns the response.
     */
    public static HttpResponse expectationResponse(HttpMessage request, long maxContentLength) {
        if (HttpUtil.isUnsupportedExpectation(request)) {
            return emptyResponse(request, HttpResponseStatus.EXPECTATION_FAILED);
        }
        if (!HttpUtil.is100ContinueExpected(request)) {
            return null;
        }
        long declared;
        try {
            declared = HttpUtil.getContentLength(request, -1L);
        } catch (NumberFormatException e) {
            declared = -1;
        }
        if (declared > maxContentLength) {
            // RFC 9110 §10.1.1: a final status instead of 100; the body was never invited, so the connection ends.
            FullHttpResponse tooLarge = emptyResponse(request, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
            tooLarge.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            return tooLarge;
        }
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE);
    }

    private static FullHttpResponse emptyResponse(HttpMessage request, HttpResponseStatus status) {
        FullHttpResponse res = new DefaultFullHttpResponse(request.protocolVersion(), status);
        res.headers().set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO);
        return res;
    }

    /**
     * The interim response that invites {@code request}'s body, or {@code null} to reject it. Override to
     * authorise uploads (check a size or credentials) before the client sends them. Default: {@code 100 Continue}.
     */
    protected HttpResponse acceptMessage(HttpRequest request) {
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE);
    }

    /**
     * The final response written for a rejected {@code request}. Default: {@code 417 Expectation Failed} with
     * {@code Content-Length: 0}.
     */
    protected HttpResponse rejectResponse(HttpRequest request) {
        FullHttpResponse res = new DefaultFullHttpResponse(request.protocolVersion(),
                HttpResponseStatus.EXPECTATION_FAILED);
        res.headers().set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO);
        return res;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof HttpRequest request) {
            discarding = false;
            HttpResponse answer = expectationResponse(request, maxContentLength);
            if (answer != null) {
                HttpResponse rejection = null;
                int code = answer.status().code();
                if (code == HttpResponseStatus.CONTINUE.code()) {
                    ReferenceCountUtil.release(answer);
                    HttpResponse accept = acceptMessage(request);
                    if (accept != null) {
                        ctx.writeAndFlush(accept).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
                        request.headers().remove(HttpHeaderNames.EXPECT);
                    } else {
                        rejection = rejectResponse(request);
                    }
                } else if (code == HttpResponseStatus.EXPECTATION_FAILED.code()) {
                    ReferenceCountUtil.release(answer);
                    rejection = rejectResponse(request);
                } else {
                    rejection = answer;
                }
                if (rejection != null) {
                    discarding = !(request instanceof LastHttpContent);
                    ReferenceCountUtil.release(request);
                    boolean close = !HttpUtil.isKeepAlive(rejection);
                    ctx.writeAndFlush(rejection).addListener(close ? ChannelFutureListener.CLOSE
                            : ChannelFutureListener.CLOSE_ON_FAILURE);
                    return;
                }
            }
        } else if (discarding && msg instanceof HttpContent content) {
            discarding = !(content instanceof LastHttpContent);
            content.release();
            return;
        }
        ctx.fireChannelRead(msg);
    }
}
