package io.weir.channel;

import io.weir.metrics.ChannelMetrics;
import io.weir.metrics.ChannelMetrics.CloseReason;
import io.weir.metrics.WeirEvents;
import java.util.Objects;

/**
 * Counts one connection into a {@link ChannelMetrics}: opened when it becomes active (or when this handler is added
 * to an active channel) and closed with its {@link CloseReason} when it goes inactive; and records the JFR events
 * {@code io.weir.ConnectionOpened} and {@code io.weir.ConnectionClosed} ({@link WeirEvents}), the latter with the
 * bytes the connection carried. Put it first in a connection's pipeline, e.g. first thing in a server's child
 * initializer, so that it sees every close a handler asks for:
 * <pre>{@code
 * ch.pipeline().addFirst(new ChannelMetricsHandler(metrics.channels()));
 * }</pre>
 *
 * <p>The reason is {@link CloseReason#ERROR} when an exception reached this handler before the close,
 * {@link CloseReason#LOCAL} when a close passed through it (a handler's or the application's), and
 * {@link CloseReason#PEER} otherwise: the transport closed the channel itself, on the peer's end of stream or reset.
 *
 * <p>It does no work per message: it handles neither reads nor writes nor flushes, so the pipeline passes them by.
 * The bytes are the transport's own counts, kept per loop ({@link io.weir.metrics.EventLoopMetrics#bytesRead()},
 * {@link io.weir.metrics.EventLoopMetrics#bytesWritten()}) and per channel for the close event.
 *
 * <p>One instance per connection (it keeps the connection's state); every method runs on the channel's event loop.
 */
public final class ChannelMetricsHandler implements ChannelHandler {
    private final ChannelMetrics metrics;
    private boolean counted;
    private boolean closedLocally;
    private boolean failed;
    private long openedAtNanos;

    /** A handler that counts into {@code metrics}. */
    public ChannelMetricsHandler(ChannelMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            opened(ctx);
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (!counted) {
            opened(ctx);
        }
        ctx.fireChannelActive();
    }

    private void opened(ChannelHandlerContext ctx) {
        counted = true;
        openedAtNanos = System.nanoTime();
        metrics.opened();
        Channel ch = ctx.channel();
        WeirEvents.connectionOpened(ch.id(), ch.localAddress(), ch.remoteAddress());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        failed = true;
        ctx.fireExceptionCaught(cause);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        closedLocally = true;
        ctx.close(promise);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (counted) {
            counted = false;
            CloseReason reason = failed ? CloseReason.ERROR : closedLocally ? CloseReason.LOCAL : CloseReason.PEER;
            metrics.closed(reason);
            Channel ch = ctx.channel();
            long read = 0;
            long written = 0;
            if (ch instanceof AbstractChannel counting) {
                read = counting.totalBytesRead();
                written = counting.totalBytesWritten();
            }
            WeirEvents.connectionClosed(ch.id(), ch.remoteAddress(), reason, System.nanoTime() - openedAtNanos,
                    read, written);
        }
        ctx.fireChannelInactive();
    }
}
