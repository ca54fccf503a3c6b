package io.weir.channel.pool;

import java.util.concurrent.TimeoutException;

/**
 * An acquire from a {@link FixedChannelPool} waited its whole acquire timeout for a channel without getting one
 * (with {@link FixedChannelPool.AcquireTimeoutAction#FAIL}). Every channel was lent out throughout: the pool is
 * too small for the load, or channels are not being released.
 *
 * <p>Raised by a timer on the pool's executor, so it carries no stack trace (it would only show the timer).
 */
public final class AcquireTimeoutException extends TimeoutException {
    private static final long serialVersionUID = 1L;

    private final long timeoutMillis;
    private final int maxConnections;

    AcquireTimeoutException(long timeoutMillis, int maxConnections) {
        super("no channel became free within the acquire timeout of " + timeoutMillis + " ms; all "
                + maxConnections + " allowed connections stayed acquired");
        this.timeoutMillis = timeoutMillis;
        this.maxConnections = maxConnections;
    }

    /** How long the acquire waited, in milliseconds: the pool's acquire timeout. */
    public long timeoutMillis() {
        return timeoutMillis;
    }

    /** The pool's limit on acquired channels, all of which were out while the acquire waited. */
    public int maxConnections() {
        return maxConnections;
    }

    /** Returns this without filling in a stack trace; see the class comment. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
