package io.weir.handler.codec.socksx.v5;

/**
 * A SOCKS5 authentication method (RFC 1928 §3): a byte a client offers and a server chooses. Any byte is a method
 * (IANA assigns 0x03 to 0x7F, 0x80 to 0xFE are private), so this is a value, not a closed set; the constants name
 * the ones this codec knows.
 *
 * @param code the method byte, 0 to 255
 */
public record Socks5AuthMethod(int code) {
    /** No authentication required: 0x00. */
    public static final Socks5AuthMethod NO_AUTH = new Socks5AuthMethod(0x00);
    /** GSSAPI (RFC 1961), which this codec does not implement: 0x01. */
    public static final Socks5AuthMethod GSSAPI = new Socks5AuthMethod(0x01);
    /** Username and password (RFC 1929): 0x02. */
    public static final Socks5AuthMethod PASSWORD = new Socks5AuthMethod(0x02);
    /** The server's answer when it accepts none of the offered methods: 0xFF. */
    public static final Socks5AuthMethod NO_ACCEPTABLE_METHODS = new Socks5AuthMethod(0xFF);

    /**
     * @throws IllegalArgumentException if {@code code} is not a byte value
     */
    public Socks5AuthMethod {
        if (code < 0 || code > 0xFF) {
            throw new IllegalArgumentException("code: " + code + " (expected 0 to 255)");
        }
    }

    /** The method's name if this codec knows it, else its code in hexadecimal. */
    @Override
    public String toString() {
        return switch (code) {
            case 0x00 -> "NO_AUTH";
            case 0x01 -> "GSSAPI";
            case 0x02 -> "PASSWORD";
            case 0xFF -> "NO_ACCEPTABLE_METHODS";
            default -> "METHOD_0x" + Integer.toHexString(code);
        };
    }
}
