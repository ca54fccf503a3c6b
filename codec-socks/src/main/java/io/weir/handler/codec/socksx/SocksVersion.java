package io.weir.handler.codec.socksx;

/** The SOCKS protocol versions this codec speaks, with the version byte each puts first on the wire. */
public enum SocksVersion {
    /** SOCKS4 with its 4a extension (a host name the proxy resolves): version byte 4. */
    SOCKS4A(4),
    /** SOCKS5, RFC 1928: version byte 5. */
    SOCKS5(5);

    private final int versionByte;

    SocksVersion(int versionByte) {
        this.versionByte = versionByte;
    }

    /** The version byte a request of this version begins with. */
    public int versionByte() {
        return versionByte;
    }
}
