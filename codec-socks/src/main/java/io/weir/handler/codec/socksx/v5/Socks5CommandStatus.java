package io.weir.handler.codec.socksx.v5;

/**
 * The REP field of a SOCKS5 reply (RFC 1928 §6): 0x00 succeeded, anything else failed. Codes above 0x08 are
 * unassigned but still a reply a proxy may send, so this is a value, not a closed set.
 *
 * @param code the REP byte, 0 to 255
 */
public record Socks5CommandStatus(int code) {
    /** Succeeded: 0x00. */
    public static final Socks5CommandStatus SUCCESS = new Socks5CommandStatus(0x00);
    /** General SOCKS server failure: 0x01. */
    public static final Socks5CommandStatus FAILURE = new Socks5CommandStatus(0x01);
    /** Connection not allowed by ruleset: 0x02. */
    public static final Socks5CommandStatus FORBIDDEN = new Socks5CommandStatus(0x02);
    /** Network unreachable: 0x03. */
    public static final Socks5CommandStatus NETWORK_UNREACHABLE = new Socks5CommandStatus(0x03);
    /** Host unreachable: 0x04. */
    public static final Socks5CommandStatus HOST_UNREACHABLE = new Socks5CommandStatus(0x04);
    /** Connection refused: 0x05. */
    public static final Socks5CommandStatus CONNECTION_REFUSED = new Socks5CommandStatus(0x05);
    /** TTL expired: 0x06. */
    public static final Socks5CommandStatus TTL_EXPIRED = new Socks5CommandStatus(0x06);
    /** Command not supported: 0x07. */
    public static final Socks5CommandStatus COMMAND_UNSUPPORTED = new Socks5CommandStatus(0x07);
    /** Address type not supported: 0x08. */
    public static final Socks5CommandStatus ADDRESS_UNSUPPORTED = new Socks5CommandStatus(0x08);

    private static final String[] NAMES = {"SUCCESS", "FAILURE", "FORBIDDEN", "NETWORK_UNREACHABLE",
        "HOST_UNREACHABLE", "CONNECTION_REFUSED", "TTL_EXPIRED", "COMMAND_UNSUPPORTED", "ADDRESS_UNSUPPORTED"};

    /**
     * @throws IllegalArgumentException if {@code code} is not a byte value
     */
    public Socks5CommandStatus {
        if (code < 0 || code > 0xFF) {
            throw new IllegalArgumentException("code: " + code + " (expected 0 to 255)");
        }
    }

    /** Whether the request succeeded. */
    public boolean isSuccess() {
        return code == 0;
    }

    /** The RFC 1928 meaning, e.g. {@code CONNECTION_REFUSED}, or {@code UNASSIGNED_0x2a}. */
    @Override
    public String toString() {
        return code < NAMES.length ? NAMES[code] : "UNASSIGNED_0x" + Integer.toHexString(code);
    }
}
