package io.weir.handler.codec.http.websocketx;

/**
 * Close status codes (RFC 6455 §7.4.1 and the IANA "WebSocket Close Code Number Registry").
 *
 * <p>Valid in a close frame on the wire ({@link #isValidOnWire}): 1000-1003, 1007-1014 (1012 Service Restart,
 * 1013 Try Again Later and 1014 Bad Gateway were registered after RFC 6455) and 3000-4999 (registered and private
 * use). Never on the wire: 0-999 (unused), 1004 (reserved), 1005 (no status), 1006 (abnormal closure), 1015 (TLS
 * failure) and 1016-2999 (reserved for future RFCs).
 */
public final class WebSocketCloseStatus {
    /** 1000: the purpose of the connection was fulfilled. */
    public static final int NORMAL_CLOSURE = 1000;
    /** 1001: the endpoint is going away (server shutdown, page navigated away). */
    public static final int GOING_AWAY = 1001;
    /** 1002: the peer broke the protocol. */
    public static final int PROTOCOL_ERROR = 1002;
    /** 1003: a data type the endpoint cannot accept. */
    public static final int UNSUPPORTED_DATA = 1003;
    /** 1005: never sent; reported locally when a close frame carried no status. */
    public static final int NO_STATUS_RECEIVED = 1005;
    /** 1006: never sent; reported locally when the connection ended without a close frame. */
    public static final int ABNORMAL_CLOSURE = 1006;
    /** 1007: a text message (or close reason) was not valid UTF-8. */
    public static final int INVALID_PAYLOAD_DATA = 1007;
    /** 1008: a policy was violated. */
    public static final int POLICY_VIOLATION = 1008;
    /** 1009: a frame or message exceeded a limit. */
    public static final int MESSAGE_TOO_BIG = 1009;
    /** 1010: (client) the server did not negotiate an extension the client requires. */
    public static final int MANDATORY_EXTENSION = 1010;
    /** 1011: the server met an unexpected condition. */
    public static final int INTERNAL_SERVER_ERROR = 1011;
    /** 1012: the service is restarting. */
    public static final int SERVICE_RESTART = 1012;
    /** 1013: try again later. */
    public static final int TRY_AGAIN_LATER = 1013;
    /** 1014: a gateway got an invalid response upstream. */
    public static final int BAD_GATEWAY = 1014;

    private WebSocketCloseStatus() {
    }

    /** Whether {@code code} may be carried by a close frame (sent or received); see the class comment. */
    public static boolean isValidOnWire(int code) {
        return code >= 1000 && code <= 1003
                || code >= 1007 && code <= 1014
                || code >= 3000 && code <= 4999;
    }
}
