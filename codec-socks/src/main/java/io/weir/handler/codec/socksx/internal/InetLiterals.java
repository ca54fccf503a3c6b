package io.weir.handler.codec.socksx.internal;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * IP address literals, parsed strictly and formatted canonically, never through a name lookup. A host string in a
 * SOCKS message is an IPv4 literal, an IPv6 literal or a host name, and only the first two may become address
 * bytes. Stateless; any thread.
 */
public final class InetLiterals {
    /** Bytes of an IPv4 address. */
    public static final int IPV4_BYTES = 4;
    /** Bytes of an IPv6 address. */
    public static final int IPV6_BYTES = 16;

    private InetLiterals() {
    }

    /**
     * The four bytes of {@code s} if it is a dotted-quad IPv4 literal: four decimal parts of 0 to 255 without
     * leading zeroes (which some parsers read as octal), nothing else; {@code null} otherwise.
     */
    public static byte[] parseIpv4(String s) {
        int n = s.length();
        if (n < 7 || n > 15) {
            return null;
        }
        byte[] out = new byte[IPV4_BYTES];
        int part = 0;
        int value = 0;
        int digits = 0;
        for (int i = 0; i <= n; i++) {
            char c = i < n ? s.charAt(i) : '.';
            if (c == '.') {
                if (digits == 0 || part == IPV4_BYTES) {
                    return null;
                }
                out[part++] = (byte) value;
                value = 0;
                digits = 0;
            } else if (c >= '0' && c <= '9') {
                if (digits == 1 && value == 0) {
                    return null;
                }
                value = value * 10 + (c - '0');
                if (++digits > 3 || value > 255) {
                    return null;
                }
            } else {
                return null;
            }
        }
        return part == IPV4_BYTES ? out : null;
    }

    /**
     * The sixteen bytes of {@code s} if it is an IPv6 literal without brackets or zone ({@code ::1},
     * {@code 2001:db8::7}, {@code ::ffff:192.0.2.1}); {@code null} otherwise.
     */
    public static byte[] parseIpv6(String s) {
        int n = s.length();
        if (n < 2 || n > 45 || s.indexOf(':') < 0) {
            return null;
        }
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (!(c == ':' || c == '.' || Character.digit(c, 16) >= 0)) {
                return null;
            }
        }
        InetAddress address;
        try {
            // In brackets, the JDK treats the string as an IPv6 literal and throws rather than look the name up.
            address = InetAddress.getByName('[' + s + ']');
        } catch (UnknownHostException e) {
            return null;
        }
        byte[] raw = address.getAddress();
        if (address instanceof Inet4Address) {
            // The JDK turns an IPv4-mapped literal into an IPv4 address: map it back.
            byte[] mapped = new byte[IPV6_BYTES];
            mapped[10] = (byte) 0xFF;
            mapped[11] = (byte) 0xFF;
            System.arraycopy(raw, 0, mapped, 12, IPV4_BYTES);
            return mapped;
        }
        return raw;
    }

    /** {@code a.b.c.d} of four bytes at {@code offset}. */
    public static String formatIpv4(byte[] bytes, int offset) {
        return (bytes[offset] & 0xFF) + "." + (bytes[offset + 1] & 0xFF) + '.' + (bytes[offset + 2] & 0xFF) + '.'
                + (bytes[offset + 3] & 0xFF);
    }

    /**
     * The RFC 5952 text of sixteen bytes: lower-case hexadecimal groups without leading zeroes, the longest run of
     * two or more zero groups (the first of equal runs) written {@code ::}.
     */
    public static String formatIpv6(byte[] bytes) {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = (bytes[2 * i] & 0xFF) << 8 | bytes[2 * i + 1] & 0xFF;
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int start = i;
            while (i < 8 && groups[i] == 0) {
                i++;
            }
            if (i - start > bestLength) {
                bestStart = start;
                bestLength = i - start;
            }
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLength - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(groups[i]));
        }
        return sb.toString();
    }
}
