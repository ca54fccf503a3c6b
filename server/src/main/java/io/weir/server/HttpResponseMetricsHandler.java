package io.weir.server;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.handler.codec.http.HttpResponse;
import io.weir.metrics.HttpMetrics;
import java.util.Objects;

/**
 * Counts every {@link HttpResponse} head written through it into {@link HttpMetrics#responses()} by status class,
 * for pipelines without an {@code HttpServerTimeoutHandler} (which counts them itself when given the metrics): the
 * server puts it after each HTTP/2 stream's {@code Http2StreamFrameToHttpObjectCodec}, where it sees the responses
 * of every handler behind it. Responses a codec writes on its own (a 400 for a malformed request) do not pass
 * through it. Sharable: it keeps no state; every call runs on the channel's event loop and costs one type check
 * per write.
 */
@ChannelHandler.Sharable
public final class HttpResponseMetricsHandler implements ChannelHandler {
    private final HttpMetrics metrics;

    /** A handler that counts into {@code metrics}. */
    public HttpResponseMetricsHandler(HttpMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpResponse response) {
            metrics.response(response.status().code());
        }
        ctx.write(msg, promise);
    }
}
