package io.weir.channel;

import io.weir.buffer.ByteBuf;
import io.weir.metrics.ChannelMetrics;
import io.weir.metrics.ChannelMetrics.CloseReason;
import io.weir.metrics.WeirEvents;
import java.util.Objects;

/**
 * Counts one connection into a {@link ChannelMetrics}: opened when it becomes active (or when this handler is added
 * to an active channel), closed with its {@link CloseReason} when it goes inactive, and the bytes read and written
 * on the way; and records the JFR events {@code io.weir.ConnectionOpened} and {@code io.weir.ConnectionClosed}
 * ({@link WeirEvents}). Put it first in a connection's pipeline, e.g. first thing in a server's child initializer,
 * so that it sees the socket's bytes and every close a handler asks for:
 * <pre>{@code
 * ch.pipeline().addFirst(new ChannelMetricsHandler(metrics.channels()));
 * }</pre>
 *
 * <p>The reason is {@link CloseReason#ERROR} when an exception reached this handler before the close,
 * {@link CloseReason#LOCAL} when a close passed through it (a handler's or the application's), and
 * {@link CloseReason#PEER} otherwise: the transport closed the channel itself, on the peer's end of stream or reset.
 *
 * <p>One instance per connection (it keeps the connection's state); every method runs on the channel's event loop.
 * The bytes are counted in plain fields of this handler and added to the shared counters once per flush and at the
 * close (received: what reached {@code channelRead}; sent: what the transport took, {@link Channel#writtenBytes()}):
 * no work per message written, and two adder updates per flush, not per message.
 */
public final class ChannelMetricsHandler implements ChannelHandler {
    private final ChannelMetrics metrics;
    private boolean counted;
    private boolean closedLocally;
    private boolean failed;
    private long openedAtNanos;
    private long bytesRead;
    private long bytesReadPublished;
    private long bytesWrittenPublished;

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
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf buf) {
            bytesRead += buf.readableBytes();
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        ctx.flush();
        publishRead();
        publishWritten(ctx.channel());
    }

    private void publishRead() {
        long unpublished = bytesRead - bytesReadPublished;
        if (unpublished != 0) {
            bytesReadPublished = bytesRead;
            metrics.bytesRead().add(unpublished);
        }
    }

    private void publishWritten(Channel ch) {
        // 0 once the channel closed (its outbound buffer is gone): never a step backwards.
        long written = ch.writtenBytes();
        if (written > bytesWrittenPublished) {
            metrics.bytesWritten().add(written - bytesWrittenPublished);
            bytesWrittenPublished = written;
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        failed = true;
        ctx.fireExceptionCaught(cause);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        closedLocally = true;
        publishWritten(ctx.channel());
        ctx.close(promise);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (counted) {
            counted = false;
            publishRead();
            CloseReason reason = failed ? CloseReason.ERROR : closedLocally ? CloseReason.LOCAL : CloseReason.PEER;
            metrics.closed(reason);
            Channel ch = ctx.channel();
            WeirEvents.connectionClosed(ch.id(), ch.remoteAddress(), reason, System.nanoTime() - openedAtNanos,
                    bytesRead, bytesWrittenPublished);
        }
        ctx.fireChannelInactive();
    }
}
