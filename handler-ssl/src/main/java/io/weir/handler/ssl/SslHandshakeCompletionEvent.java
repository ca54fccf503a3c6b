package io.weir.handler.ssl;

import java.util.Objects;

/** Fired by {@link SslHandler} when the handshake succeeded or failed (timeout, bad peer, closed connection). */
public final class SslHandshakeCompletionEvent extends SslCompletionEvent {
    /** The handshake succeeded. */
    public static final SslHandshakeCompletionEvent SUCCESS = new SslHandshakeCompletionEvent();

    private SslHandshakeCompletionEvent() {
        super(null);
    }

    /** The handshake failed because of {@code cause}. */
    public SslHandshakeCompletionEvent(Throwable cause) {
        super(Objects.requireNonNull(cause, "cause"));
    }
}
