package io.weir.handler.codec.http2.internal;

import static io.weir.handler.codec.http2.Http2Exception.connectionError;

import io.weir.channel.ChannelFuture;
import io.weir.channel.ChannelFutureListener;
import io.weir.handler.codec.http2.Http2Error;
import io.weir.handler.codec.http2.Http2Exception;
import io.weir.util.Ticker;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

/**
 * The counted limits of one {@link Http2Connection} against floods: resets received plus sent per window (Rapid
 * Reset, MadeYouReset), on this connection and on a budget shared by connections, and control-frame answers the
 * peer leaves unread (PING and SETTINGS floods). Each check returns the connection error to end with, or null; the
 * connection decides how to end. Only used from the connection's event loop.
 */
final class Http2ConnectionLimits {

    private final Http2ConnectionConfig config;
    private Http2EventLimiter resets;
    private int queuedControlFrames;
    private final ChannelFutureListener controlFrameWritten = f -> queuedControlFrames--;

    Http2ConnectionLimits(Http2ConnectionConfig config) {
        this.config = config;
    }

    /** Starts counting resets on the connection's clock. */
    void start(Ticker ticker) {
        resets = new Http2EventLimiter(config.maxResetsPerWindow(),
                TimeUnit.MILLISECONDS.toNanos(config.resetWindowMillis()), ticker);
    }

    /**
     * Records a reset, received or sent, against this connection's limit and the shared budget if there is one;
     * the connection error to end with when either is spent, null otherwise.
     */
    Http2Exception recordReset() {
        if (!resets.tryRecord()) {
            return connectionError(Http2Error.ENHANCE_YOUR_CALM, "more than " + resets.maxEvents()
                    + " streams reset within " + config.resetWindowMillis() + " ms (Rapid Reset / MadeYouReset)");
        }
        LongPredicate shared = config.sharedResetBudget();
        if (shared != null && !shared.test(System.nanoTime())) {
            return connectionError(Http2Error.ENHANCE_YOUR_CALM, "more than " + config.sharedResetBudgetMax()
                    + " streams reset within " + config.sharedResetBudgetWindowMillis()
                    + " ms across connections (Rapid Reset)");
        }
        return null;
    }

    /**
     * Tracks a control-frame answer until it is written; the connection error to end with when too many wait
     * unwritten, null otherwise.
     */
    Http2Exception controlFrameQueued(ChannelFuture future) {
        if (future.isDone()) {
            return null;
        }
        if (++queuedControlFrames > config.maxQueuedControlFrames()) {
            return connectionError(Http2Error.ENHANCE_YOUR_CALM, "more than " + config.maxQueuedControlFrames()
                    + " control frames queued unread by the peer");
        }
        future.addListener(controlFrameWritten);
        return null;
    }
}
