package io.weir.handler.codec.http2;

/**
 * The error codes of RFC 9113 §7, carried by RST_STREAM and GOAWAY frames. An unknown code received from a peer is
 * not an error (§7: "unknown or unsupported error codes MUST NOT trigger any special behavior"); {@link #of(long)}
 * maps it to {@code null} and callers keep the raw value.
 */
public enum Http2Error {
    NO_ERROR(0x0),
    PROTOCOL_ERROR(0x1),
    INTERNAL_ERROR(0x2),
    FLOW_CONTROL_ERROR(0x3),
    SETTINGS_TIMEOUT(0x4),
    STREAM_CLOSED(0x5),
    FRAME_SIZE_ERROR(0x6),
    REFUSED_STREAM(0x7),
    CANCEL(0x8),
    COMPRESSION_ERROR(0x9),
    CONNECT_ERROR(0xa),
    ENHANCE_YOUR_CALM(0xb),
    INADEQUATE_SECURITY(0xc),
    HTTP_1_1_REQUIRED(0xd);

    private static final Http2Error[] BY_CODE = values();

    private final int code;

    Http2Error(int code) {
        this.code = code;
    }

    /** The 32-bit code sent on the wire. */
    public int code() {
        return code;
    }

    /**
     * The error with this wire code, or {@code null} for a code RFC 9113 does not define.
     *
     * @param code the unsigned 32-bit code as read from a frame
     */
    public static Http2Error of(long code) {
        // The enum's ordinals are its codes (0x0..0xd, no gaps).
        return code >= 0 && code < BY_CODE.length ? BY_CODE[(int) code] : null;
    }
}
