package io.weir.handler.codec.socksx.v5;

import io.weir.handler.codec.socksx.internal.InetLiterals;
import java.util.Objects;

/** The ATYP byte of a SOCKS5 request or reply (RFC 1928 §4, §5): how the address that follows is written. */
public enum Socks5AddressType {
    /** Four bytes of IPv4 address: 0x01. */
    IPV4(0x01),
    /** A length byte, then that many bytes of host name, which the proxy resolves: 0x03. */
    DOMAIN(0x03),
    /** Sixteen bytes of IPv6 address: 0x04. */
    IPV6(0x04);

    private final int code;

    Socks5AddressType(int code) {
        this.code = code;
    }

    /** The ATYP byte. */
    public int code() {
        return code;
    }

    /** The address type with ATYP byte {@code code}, or {@code null} if RFC 1928 defines none. */
    public static Socks5AddressType valueOf(int code) {
        return switch (code) {
            case 0x01 -> IPV4;
            case 0x03 -> DOMAIN;
            case 0x04 -> IPV6;
            default -> null;
        };
    }

    /**
     * How {@code host} travels: {@link #IPV4} for a dotted-quad IPv4 literal, {@link #IPV6} for an IPv6 literal
     * (without brackets or zone), {@link #DOMAIN} for anything else. Never looks a name up.
     *
     * @throws NullPointerException if {@code host} is null
     */
    public static Socks5AddressType of(String host) {
        Objects.requireNonNull(host, "host");
        if (InetLiterals.parseIpv4(host) != null) {
            return IPV4;
        }
        return host.indexOf(':') >= 0 && InetLiterals.parseIpv6(host) != null ? IPV6 : DOMAIN;
    }
}
