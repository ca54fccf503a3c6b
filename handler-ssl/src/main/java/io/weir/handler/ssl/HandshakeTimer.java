package io.weir.handler.ssl;

import io.weir.util.concurrent.EventExecutor;
import io.weir.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The bound on one {@link SslHandler}'s handshake: a timer started with the handshake and cancelled when it ends
 * either way, so that a silent or slow peer cannot hold a connection open. Only used from the channel's event loop.
 */
final class HandshakeTimer {
    private long timeoutMillis = SslHandler.DEFAULT_HANDSHAKE_TIMEOUT_MILLIS;
    private ScheduledFuture<?> timer;

    /** The timeout in milliseconds; 0 waits forever. */
    long timeoutMillis() {
        return timeoutMillis;
    }

    void timeoutMillis(long millis) {
        timeoutMillis = millis;
    }

    /**
     * {@code timeout} in milliseconds, for the handler's timeout setters.
     *
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    static long checkedMillis(long timeout, TimeUnit unit, String name) {
        if (timeout < 0) {
            throw new IllegalArgumentException(name + ": " + timeout + " (expected >= 0)");
        }
        return unit.toMillis(timeout);
    }

    /** Runs {@code onTimeout} on {@code loop} once the timeout passed, unless {@link #cancel} came first. */
    void start(EventExecutor loop, Runnable onTimeout) {
        if (timeoutMillis > 0) {
            timer = loop.schedule(onTimeout, timeoutMillis, TimeUnit.MILLISECONDS);
        }
    }

    /** Cancels the timer, if it was started. */
    void cancel() {
        ScheduledFuture<?> t = timer;
        if (t != null) {
            // Not kept: a connection that stays open must not hold its finished handshake's task.
            timer = null;
            t.cancel(false);
        }
    }
}
