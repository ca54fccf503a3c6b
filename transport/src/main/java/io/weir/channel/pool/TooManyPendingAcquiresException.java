package io.weir.channel.pool;

/**
 * An acquire from a {@link FixedChannelPool} was refused at once: every allowed connection was lent out and as
 * many acquires as the pool lets wait were waiting already. Shedding load here keeps callers from piling up
 * behind a slow or stuck peer.
 *
 * <p>Raised on the pool's executor, so it carries no stack trace (it would only show the pool's internals).
 */
public final class TooManyPendingAcquiresException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final int maxPendingAcquires;
    private final int maxConnections;

    TooManyPendingAcquiresException(int maxPendingAcquires, int maxConnections) {
        super("acquire refused: all " + maxConnections + " allowed connections are acquired and "
                + maxPendingAcquires + " acquires (maxPendingAcquires) wait already");
        this.maxPendingAcquires = maxPendingAcquires;
        this.maxConnections = maxConnections;
    }

    /** How many acquires the pool lets wait, all of which were waiting. */
    public int maxPendingAcquires() {
        return maxPendingAcquires;
    }

    /** The pool's limit on acquired channels, all of which were out. */
    public int maxConnections() {
        return maxConnections;
    }

    /** Returns this without filling in a stack trace; see the class comment. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
