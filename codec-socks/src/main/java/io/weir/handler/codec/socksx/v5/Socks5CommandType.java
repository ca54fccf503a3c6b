package io.weir.handler.codec.socksx.v5;

/** What a SOCKS5 request asks the proxy to do: the CMD byte (RFC 1928 §4). */
public enum Socks5CommandType {
    /** Connect to the destination and relay: 0x01. */
    CONNECT(0x01),
    /** Listen for one connection from the destination: 0x02. */
    BIND(0x02),
    /** Relay UDP datagrams: 0x03. */
    UDP_ASSOCIATE(0x03);

    private final int code;

    Socks5CommandType(int code) {
        this.code = code;
    }

    /** The CMD byte. */
    public int code() {
        return code;
    }

    /** The command with CMD byte {@code code}, or {@code null} if RFC 1928 defines none. */
    public static Socks5CommandType valueOf(int code) {
        return switch (code) {
            case 0x01 -> CONNECT;
            case 0x02 -> BIND;
            case 0x03 -> UDP_ASSOCIATE;
            default -> null;
        };
    }
}
