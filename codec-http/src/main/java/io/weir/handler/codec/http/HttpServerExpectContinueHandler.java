package io.weir.handler.codec.http;

import io.weir.channel.ChannelFutureListener;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.util.ReferenceCountUtil;

/**
 * Answers {@code Expect: 100-continue} (RFC 9110 §10.1.1) for servers that stream request bodies instead of
 * aggregating them ({@link HttpObjectAggregator} does this itself). Place it after the server codec.
 *
 * <p>For an HTTP/1.1 request expecting {@code 100-continue}, {@link #acceptMessage} supplies the interim
 * response ({@code 100 Continue} by default), which is written at once; the {@code Expect} header is removed and
 * the request passed on. If {@link #acceptMessage} returns {@code null}, or the request carries an expectation
 * other than {@code 100-continue}, {@link #rejectResponse} ({@code 417 Expectation Failed}) is written instead,
 * and neither the request nor its content is passed on.
 *
 * <p>Only called on the channel's event loop; one instance per channel.
 */
public class HttpServerExpectContinueHandler implements ChannelHandler {
    /** Drop content until the end of a rejected request. */
    private boolean discarding;

    /** A handler that accepts every {@code 100-continue} expectation. */
    public HttpServerExpectContinueHandler() {
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
            HttpResponse accept = null;
            boolean expects = HttpUtil.is100ContinueExpected(request);
            if (expects) {
                accept = acceptMessage(request);
            }
            if (expects && accept == null || HttpUtil.isUnsupportedExpectation(request)) {
                HttpResponse rejection = rejectResponse(request);
                discarding = !(request instanceof LastHttpContent);
                ReferenceCountUtil.release(request);
                ctx.writeAndFlush(rejection).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
                return;
            }
            if (accept != null) {
                ctx.writeAndFlush(accept).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
                request.headers().remove(HttpHeaderNames.EXPECT);
            }
        } else if (discarding && msg instanceof HttpContent content) {
            discarding = !(content instanceof LastHttpContent);
            content.release();
            return;
        }
        ctx.fireChannelRead(msg);
    }
}
