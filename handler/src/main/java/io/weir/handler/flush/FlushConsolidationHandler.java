package io.weir.handler.flush;

import io.weir.channel.ChannelHandler;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.util.concurrent.Future;

/**
 * Turns many flushes into few: a flush costs a system call, and request/response protocols often flush
 * after every small write. While a read is in progress (between the first {@code channelRead} and
 * {@code channelReadComplete}) flushes are counted instead of passed on and one flush goes out at the end
 * of the read, or as soon as {@code explicitFlushAfterFlushes} have been held back. With
 * {@code consolidateWhenNoReadInProgress}, flushes outside a read are also consolidated: one flush is queued
 * as a task on the event loop and goes out after what is running now, again at the latest after
 * {@code explicitFlushAfterFlushes}.
 *
 * <p>Held-back flushes go out before a {@code close} or {@code disconnect}, on an exception event, when the
 * channel becomes unwritable (so the transport can drain), and when the handler is removed.
 *
 * <p>Not {@link Sharable}. Event loop only.
 */
public class FlushConsolidationHandler implements ChannelHandler {
    /** The default for {@code explicitFlushAfterFlushes}. */
    public static final int DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES = 256;

    private final int explicitFlushAfterFlushes;
    private final boolean consolidateWhenNoReadInProgress;
    private final Runnable flushTask;
    private int flushPendingCount;
    private boolean readInProgress;
    private ChannelHandlerContext ctx;
    private Future<?> nextScheduledFlush;

    /** Flushes at most every {@value #DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES} flushes during reads. */
    public FlushConsolidationHandler() {
        this(DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, false);
    }

    /** Flushes at most every {@code explicitFlushAfterFlushes} flushes during reads. */
    public FlushConsolidationHandler(int explicitFlushAfterFlushes) {
        this(explicitFlushAfterFlushes, false);
    }

    /**
     * A handler holding back up to {@code explicitFlushAfterFlushes - 1} flushes.
     *
     * @param consolidateWhenNoReadInProgress whether flushes outside a read are consolidated too (through a
     *        task on the event loop)
     * @throws IllegalArgumentException if {@code explicitFlushAfterFlushes} is not positive
     */
    public FlushConsolidationHandler(int explicitFlushAfterFlushes, boolean consolidateWhenNoReadInProgress) {
        if (explicitFlushAfterFlushes <= 0) {
            throw new IllegalArgumentException("explicitFlushAfterFlushes: " + explicitFlushAfterFlushes
                    + " (expected: > 0)");
        }
        this.explicitFlushAfterFlushes = explicitFlushAfterFlushes;
        this.consolidateWhenNoReadInProgress = consolidateWhenNoReadInProgress;
        this.flushTask = consolidateWhenNoReadInProgress ? this::scheduledFlush : null;
    }

    private void scheduledFlush() {
        nextScheduledFlush = null;
        if (flushPendingCount > 0 && !readInProgress) {
            flushPendingCount = 0;
            ctx.flush();
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.ctx = ctx;
    }

    @Override
    public void flush(ChannelHandlerContext ctx) throws Exception {
        if (readInProgress) {
            // channelReadComplete will flush; until then only a long burst forces one.
            if (++flushPendingCount == explicitFlushAfterFlushes) {
                flushNow(ctx);
            }
        } else if (consolidateWhenNoReadInProgress) {
            if (++flushPendingCount == explicitFlushAfterFlushes) {
                flushNow(ctx);
            } else {
                scheduleFlush(ctx);
            }
        } else {
            flushNow(ctx);
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        readInProgress = true;
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        resetReadAndFlushIfNeeded(ctx);
        ctx.fireChannelReadComplete();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) throws Exception {
        resetReadAndFlushIfNeeded(ctx);
        ctx.fireExceptionCaught(cause);
    }

    @Override
    public void disconnect(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
        resetReadAndFlushIfNeeded(ctx);
        ctx.disconnect(promise);
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) throws Exception {
        resetReadAndFlushIfNeeded(ctx);
        ctx.close(promise);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        if (!ctx.channel().isWritable()) {
            // Let the transport drain what was held back, or writability may never come back.
            flushIfNeeded(ctx);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) throws Exception {
        flushIfNeeded(ctx);
    }

    private void resetReadAndFlushIfNeeded(ChannelHandlerContext ctx) {
        readInProgress = false;
        flushIfNeeded(ctx);
    }

    private void flushIfNeeded(ChannelHandlerContext ctx) {
        if (flushPendingCount > 0) {
            flushNow(ctx);
        }
    }

    private void flushNow(ChannelHandlerContext ctx) {
        cancelScheduledFlush();
        flushPendingCount = 0;
        ctx.flush();
    }

    private void scheduleFlush(ChannelHandlerContext ctx) {
        if (nextScheduledFlush == null) {
            nextScheduledFlush = ctx.channel().eventLoop().submit(flushTask);
        }
    }

    private void cancelScheduledFlush() {
        if (nextScheduledFlush != null) {
            nextScheduledFlush.cancel(false);
            nextScheduledFlush = null;
        }
    }
}
