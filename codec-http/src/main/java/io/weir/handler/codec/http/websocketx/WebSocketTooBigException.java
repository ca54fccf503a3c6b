package io.weir.handler.codec.http.websocketx;

/**
 * A frame or message went over a configured limit ({@link WebSocketConfig}): the connection is failed with 1009
 * (Message Too Big). Carries what was seen and the limit.
 */
public final class WebSocketTooBigException extends WebSocketProtocolException {
    private static final long serialVersionUID = 1L;
    private final long seen;
    private final long limit;

    /** {@code what} reached {@code seen} against a limit of {@code limit}. */
    public WebSocketTooBigException(String what, long seen, long limit) {
        super(WebSocketCloseStatus.MESSAGE_TOO_BIG, what + " " + seen + " over limit " + limit);
        this.seen = seen;
        this.limit = limit;
    }

    /** The size or count seen when the limit was crossed (above {@code limit}). */
    public long seen() {
        return seen;
    }

    /** The limit. */
    public long limit() {
        return limit;
    }
}
