package io.weir.handler.ssl;

/**
 * The outcome of a TLS phase, fired through {@code fireUserEventTriggered} by {@link SslHandler} once per
 * connection and phase: {@link SslHandshakeCompletionEvent} or {@link SslCloseCompletionEvent}.
 */
public abstract class SslCompletionEvent {
    private final Throwable cause;

    SslCompletionEvent(Throwable cause) {
        this.cause = cause;
    }

    /** Whether the phase succeeded. */
    public final boolean isSuccess() {
        return cause == null;
    }

    /** Why the phase failed, or null if it succeeded. */
    public final Throwable cause() {
        return cause;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + (cause == null ? "(SUCCESS)" : "(" + cause + ')');
    }
}
