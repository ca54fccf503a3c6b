package io.weir.server;

import io.weir.buffer.Unpooled;
import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.handler.codec.http.DefaultHttpContent;
import io.weir.handler.codec.http.DefaultHttpResponse;
import io.weir.handler.codec.http.DefaultLastHttpContent;
import io.weir.handler.codec.http.FullHttpRequest;
import io.weir.handler.codec.http.HttpContent;
import io.weir.handler.codec.http.HttpHeaderNames;
import io.weir.handler.codec.http.HttpHeaderValues;
import io.weir.handler.codec.http.HttpMethod;
import io.weir.handler.codec.http.HttpRequest;
import io.weir.handler.codec.http.HttpResponse;
import io.weir.handler.codec.http.HttpResponseStatus;
import io.weir.handler.codec.http.HttpServerExpectContinueHandler;
import io.weir.handler.codec.http.HttpUtil;
import io.weir.handler.codec.http.LastHttpContent;
import io.weir.util.ReferenceCountUtil;

/**
 * {@code POST /echo} on an HTTP/2 stream, with a body that is still arriving, answered as it arrives: the response head goes out with
 * the request's first piece, and each piece of the body is written back as it is read, so the server holds at most
 * what the connection's backpressure lets through instead of a whole body per stream (up to 100 of them on one
 * connection). It relies on {@code Http2StreamFrameToHttpObjectCodec} in front to stop reading while the stream is
 * unwritable, so a client that sends without reading the echo is stopped by its own flow-control window.
 *
 * <p>Sits before the aggregator. A request that arrives whole (no body, or HTTP/2 HEADERS with END_STREAM), a
 * declared length above {@link HttpServer#MAX_CONTENT_LENGTH_BYTES}, an expectation other than
 * {@code 100-continue} and every other route pass on untouched (the aggregator answers 413 and 417, the router the
 * rest). A body that grows past the limit without a declared length is cut: the response has started, so the
 * connection (on HTTP/2, the stream) is closed. One instance per channel; event loop only.
 */
final class EchoHandler implements ChannelHandler {

    private final long maxBodyBytes;
    /** Echoing the body of the request in progress. */
    private boolean echoing;
    private long echoedBytes;
    private boolean wrote;

    EchoHandler(long maxBodyBytes) {
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest req) {
            if (msg instanceof FullHttpRequest || !isStreamingEcho(req)) {
                ctx.fireChannelRead(msg);
                return;
            }
            start(ctx, req);
            if (msg instanceof HttpContent content) {
                echo(ctx, content);
            }
        } else if (msg instanceof HttpContent content && echoing) {
            echo(ctx, content);
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    private boolean isStreamingEcho(HttpRequest req) {
        if (!req.method().equals(HttpMethod.POST) || !"/echo".equals(HttpServerHandler.pathOf(req.uri()))) {
            return false;
        }
        long declared = HttpUtil.getContentLength(req, -1L);
        if (declared > maxBodyBytes) {
            return false; // the aggregator answers 413 (and its expectation) as for any route
        }
        HttpResponse expectation = HttpServerExpectContinueHandler.expectationResponse(req, maxBodyBytes);
        if (expectation == null) {
            return true;
        }
        boolean accepted = expectation.status().code() == HttpResponseStatus.CONTINUE.code();
        ReferenceCountUtil.release(expectation);
        return accepted;
    }

    private void start(ChannelHandlerContext ctx, HttpRequest req) {
        echoing = true;
        echoedBytes = 0;
        if (HttpUtil.is100ContinueExpected(req)) {
            // Accepted: invite the body now rather than let the client wait for a silence.
            ctx.write(new DefaultHttpResponse(req.protocolVersion(), HttpResponseStatus.CONTINUE));
            req.headers().remove(HttpHeaderNames.EXPECT);
        }
        HttpResponse response = new DefaultHttpResponse(req.protocolVersion(), HttpResponseStatus.OK);
        CharSequence type = req.headers().get(HttpHeaderNames.CONTENT_TYPE);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE,
                type != null ? type : HttpHeaderValues.APPLICATION_OCTET_STREAM);
        long declared = HttpUtil.getContentLength(req, -1L);
        if (declared >= 0) {
            HttpUtil.setContentLength(response, declared);
        } else {
            HttpUtil.setTransferEncodingChunked(response, true);
        }
        ctx.write(response);
        wrote = true;
    }

    private void echo(ChannelHandlerContext ctx, HttpContent content) {
        boolean last = content instanceof LastHttpContent;
        echoedBytes += content.content().readableBytes();
        if (echoedBytes > maxBodyBytes) {
            content.release();
            echoing = false;
            // The 200 is on its way, so no 413 can follow: ending the exchange is the only honest answer.
            ctx.close();
            return;
        }
        if (last) {
            echoing = false;
            ctx.write(content.content().isReadable() ? new DefaultLastHttpContent(content.content())
                    : releaseAndEmptyLast(content));
        } else {
            ctx.write(new DefaultHttpContent(content.content()));
        }
        wrote = true;
    }

    private static LastHttpContent releaseAndEmptyLast(HttpContent content) {
        content.release();
        return new DefaultLastHttpContent(Unpooled.EMPTY_BUFFER);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (wrote) {
            wrote = false;
            ctx.flush();
        }
        ctx.fireChannelReadComplete();
    }
}
