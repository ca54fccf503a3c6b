package io.weir.handler.codec.socksx.v4;

/** The answer of a SOCKS4 proxy to a request: the CD byte of a reply. The protocol defines these four. */
public enum Socks4CommandStatus {
    /** Request granted: CD 90. */
    GRANTED(90),
    /** Request rejected or failed: CD 91. */
    REJECTED(91),
    /** Rejected because the proxy cannot reach identd on the client: CD 92. */
    IDENTD_UNREACHABLE(92),
    /** Rejected because identd and the request report different user ids: CD 93. */
    IDENTD_MISMATCH(93);

    private final int code;

    Socks4CommandStatus(int code) {
        this.code = code;
    }

    /** The CD byte. */
    public int code() {
        return code;
    }

    /** Whether the request was granted. */
    public boolean isSuccess() {
        return this == GRANTED;
    }

    /** The status with CD byte {@code code}, or {@code null} if SOCKS4 defines none. */
    public static Socks4CommandStatus valueOf(int code) {
        return switch (code) {
            case 90 -> GRANTED;
            case 91 -> REJECTED;
            case 92 -> IDENTD_UNREACHABLE;
            case 93 -> IDENTD_MISMATCH;
            default -> null;
        };
    }
}
