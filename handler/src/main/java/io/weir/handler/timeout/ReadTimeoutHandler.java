package io.weir.handler.timeout;

import io.weir.channel.ChannelHandlerContext;
import java.util.concurrent.TimeUnit;

/**
 * Closes a channel on which nothing was read for the timeout, after firing {@link ReadTimeoutException}
 * (once) as an exception event. Time counts from the end of the last read burst; see {@link IdleStateHandler}
 * for when timing starts and stops. Not {@link Sharable}. Called on the event loop only.
 */
public class ReadTimeoutHandler extends IdleStateHandler {
    private boolean closed;

    /** Times out after {@code timeoutSeconds} seconds without a read. */
    public ReadTimeoutHandler(int timeoutSeconds) {
        this(timeoutSeconds, TimeUnit.SECONDS);
    }

    /**
     * Times out after {@code timeout} {@code unit}s without a read.
     *
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public ReadTimeoutHandler(long timeout, TimeUnit unit) {
        super(checkPositive(timeout), 0, 0, unit);
    }

    private static long checkPositive(long timeout) {
        if (timeout <= 0) {
            throw new IllegalArgumentException("timeout: " + timeout + " (expected: > 0)");
        }
        return timeout;
    }

    @Override
    protected final void channelIdle(ChannelHandlerContext ctx, IdleStateEvent evt) throws Exception {
        readTimedOut(ctx);
    }

    /** Fires {@link ReadTimeoutException} and closes the channel, the first time only. */
    protected void readTimedOut(ChannelHandlerContext ctx) throws Exception {
        if (!closed) {
            closed = true;
            ctx.fireExceptionCaught(ReadTimeoutException.INSTANCE);
            ctx.close();
        }
    }
}
