package io.weir.handler.ssl;

import javax.net.ssl.SSLHandshakeException;

/**
 * A ClientHello that {@link SniHandler} refused: it breaks the grammar of RFC 8446 §4.1.2 or RFC 6066 §3, or a
 * limit (its length). The message says what was seen. No stack trace (a peer can trigger it at will).
 */
public final class MalformedClientHelloException extends SSLHandshakeException {
    private static final long serialVersionUID = 1L;

    /** What was wrong. */
    public MalformedClientHelloException(String message) {
        super(message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
