package io.weir.handler.codec.http.websocketx;

/**
 * An opening handshake was refused. On a server it carries the HTTP status the request is answered with (400 bad
 * request, 403 origin refused, 426 unsupported version); on a client the status is that of the response that was
 * refused (or 0 when the response never came).
 */
public final class WebSocketHandshakeException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int httpStatus;

    /** A refusal answered with (or caused by) {@code httpStatus}, for {@code reason}. */
    public WebSocketHandshakeException(int httpStatus, String reason) {
        super(reason, null, false, false);
        this.httpStatus = httpStatus;
    }

    /** The HTTP status of the refusal. */
    public int httpStatus() {
        return httpStatus;
    }
}
