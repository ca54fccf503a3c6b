package io.weir.handler.codec.socksx.v4;

/** What a SOCKS4 request asks the proxy to do: the CD byte of a request. */
public enum Socks4CommandType {
    /** Connect to the destination and relay: CD 1. */
    CONNECT(1),
    /** Listen for one connection from the destination (for protocols such as FTP's active mode): CD 2. */
    BIND(2);

    private final int code;

    Socks4CommandType(int code) {
        this.code = code;
    }

    /** The CD byte. */
    public int code() {
        return code;
    }

    /** The command with CD byte {@code code}, or {@code null} if SOCKS4 defines none. */
    public static Socks4CommandType valueOf(int code) {
        return switch (code) {
            case 1 -> CONNECT;
            case 2 -> BIND;
            default -> null;
        };
    }
}
