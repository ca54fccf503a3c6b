package io.weir.handler.ssl;

import io.weir.buffer.ByteBuf;
import io.weir.channel.ChannelHandlerContext;
import io.weir.channel.ChannelPromise;
import io.weir.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;

/**
 * The closing half of one {@link SslHandler} (RFC 8446 §6.1, RFC 5246 §7.2.1): sends close_notify, waits (bounded)
 * for it to be written and, when asked, for the peer's, then closes the channel. Holds the two close timeouts, the
 * pending timer and the promise of the {@code close()} under way. Only used from the channel's event loop.
 */
final class CloseNotifySequence {
    private long flushTimeoutMillis = SslHandler.DEFAULT_CLOSE_NOTIFY_FLUSH_TIMEOUT_MILLIS;
    private long readTimeoutMillis = SslHandler.DEFAULT_CLOSE_NOTIFY_READ_TIMEOUT_MILLIS;
    private ScheduledFuture<?> timeout;
    private ChannelPromise closePromise;
    private boolean closing;

    long flushTimeoutMillis() {
        return flushTimeoutMillis;
    }

    void flushTimeoutMillis(long millis) {
        flushTimeoutMillis = millis;
    }

    long readTimeoutMillis() {
        return readTimeoutMillis;
    }

    void readTimeoutMillis(long millis) {
        readTimeoutMillis = millis;
    }

    /** Whether a close is under way (writes are refused from then on). */
    boolean isClosing() {
        return closing;
    }

    /** Marks a close under way that sends no close_notify (the handshake never completed, or the channel is dead). */
    void markClosing() {
        closing = true;
    }

    /**
     * Sends close_notify, then closes the channel (completing {@code promise}) once it was written and, if
     * {@code awaitPeer}, once the peer's close_notify arrived ({@link #peerClosed}); each wait is bounded by its
     * timeout. The close_notify is written and flushed here.
     */
    void start(ChannelHandlerContext ctx, SSLEngine engine, ChannelPromise promise, boolean awaitPeer) {
        closing = true;
        closePromise = promise;
        engine.closeOutbound();
        ChannelPromise written = ctx.newPromise();
        try {
            ByteBuf out = ctx.alloc().directBuffer(engine.getSession().getPacketBufferSize());
            SSLEngineResult result = engine.wrap(SslHandler.EMPTY_SOURCES, out.internalNioBuffer(out.writerIndex(),
                    out.writableBytes()));
            if (result.bytesProduced() > 0) {
                out.writerIndex(result.bytesProduced());
                ctx.writeAndFlush(out, written);
            } else {
                out.release();
                written.trySuccess();
            }
        } catch (Throwable t) {
            written.tryFailure(t);
        }
        if (!written.isDone() && flushTimeoutMillis > 0) {
            timeout = ctx.executor().schedule(() -> ctx.close(promise), flushTimeoutMillis, TimeUnit.MILLISECONDS);
        }
        written.addListener(f -> {
            cancel();
            if (!f.isSuccess() || !awaitPeer || engine.isInboundDone() || !ctx.channel().isActive()) {
                ctx.close(promise);
            } else {
                timeout = ctx.executor().schedule(() -> ctx.close(promise), readTimeoutMillis, TimeUnit.MILLISECONDS);
            }
        });
    }

    /** The peer's close_notify arrived while our {@code close()} waited for it: close now. */
    void peerClosed(ChannelHandlerContext ctx) {
        cancel();
        ctx.close(closePromise);
    }

    /** Cancels the pending close timer, if any. */
    void cancel() {
        if (timeout != null) {
            timeout.cancel(false);
        }
    }
}
