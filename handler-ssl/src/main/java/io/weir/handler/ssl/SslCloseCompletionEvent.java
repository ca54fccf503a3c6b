package io.weir.handler.ssl;

import java.util.Objects;

/**
 * Fired by {@link SslHandler} when the peer's close_notify arrived ({@link #SUCCESS}), or when the connection
 * ended without one (a failure whose cause says why; truncation if the peer just closed).
 */
public final class SslCloseCompletionEvent extends SslCompletionEvent {
    /** The peer sent close_notify. */
    public static final SslCloseCompletionEvent SUCCESS = new SslCloseCompletionEvent();

    private SslCloseCompletionEvent() {
        super(null);
    }

    /** The TLS session ended without the peer's close_notify, because of {@code cause}. */
    public SslCloseCompletionEvent(Throwable cause) {
        super(Objects.requireNonNull(cause, "cause"));
    }
}
