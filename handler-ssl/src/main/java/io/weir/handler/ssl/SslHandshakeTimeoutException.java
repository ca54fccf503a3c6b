package io.weir.handler.ssl;

import javax.net.ssl.SSLHandshakeException;

/** The handshake did not complete within {@link SslHandler#getHandshakeTimeoutMillis()}. No stack trace. */
public final class SslHandshakeTimeoutException extends SSLHandshakeException {
    private static final long serialVersionUID = 1L;

    /** A timeout after {@code timeoutMillis}. */
    public SslHandshakeTimeoutException(long timeoutMillis) {
        super("handshake timed out after " + timeoutMillis + " ms");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
