package io.weir.handler.codec.haproxy;

/**
 * Strict text forms of the addresses and ports in a PROXY header. Parsing never resolves a name: it accepts
 * literals only and returns {@code null} (or {@code -1}) for anything else, so a header cannot make the server
 * look up a host.
 */
final class HAProxyAddresses {
    static final int IPV4_BYTES = 4;
    static final int IPV6_BYTES = 16;
    static final int MAX_PORT = 0xFFFF;
    private static final int IPV6_GROUPS = 8;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private HAProxyAddresses() {
    }

    /**
     * The 4 bytes of a dotted-quad IPv4 address, or {@code null}: exactly four decimal numbers of 0 to 255
     * separated by single dots, without leading zeroes (the specification's section 2.1 forbids them, as they read
     * as octal elsewhere).
     */
    static byte[] parseIpv4(String s) {
        byte[] out = new byte[IPV4_BYTES];
        return parseIpv4(s, 0, s.length(), out, 0) ? out : null;
    }

    private static boolean parseIpv4(String s, int from, int to, byte[] out, int outIndex) {
        int part = 0;
        int i = from;
        while (part < IPV4_BYTES) {
            int start = i;
            int value = 0;
            while (i < to && i - start < 3 && isDigit(s.charAt(i))) {
                value = value * 10 + (s.charAt(i) - '0');
                i++;
            }
            int digits = i - start;
            if (digits == 0 || value > 255 || (digits > 1 && s.charAt(start) == '0')) {
                return false;
            }
            out[outIndex + part++] = (byte) value;
            if (part < IPV4_BYTES) {
                if (i >= to || s.charAt(i) != '.') {
                    return false;
                }
                i++;
            }
        }
        return i == to;
    }

    /**
     * The 16 bytes of an IPv6 address, or {@code null}: eight groups of one to four hexadecimal digits (either
     * case) separated by colons, at most one {@code ::} standing for one or more zero groups, and optionally a
     * dotted-quad IPv4 address as the last 32 bits (as {@code inet_ntop} writes an IPv4-mapped address). No zone
     * index, no brackets.
     */
    static byte[] parseIpv6(String s) {
        int n = s.length();
        if (n < 2) {
            return null;
        }
        int gap = s.indexOf("::");
        if (gap >= 0 && s.indexOf("::", gap + 1) >= 0) {
            return null;
        }
        byte[] out = new byte[IPV6_BYTES];
        if (gap < 0) {
            return parseIpv6Groups(s, 0, n, out, 0, true) == IPV6_GROUPS ? out : null;
        }
        int head = parseIpv6Groups(s, 0, gap, out, 0, false);
        if (head < 0) {
            return null;
        }
        byte[] tail = new byte[IPV6_BYTES];
        int tailGroups = parseIpv6Groups(s, gap + 2, n, tail, 0, true);
        // "::" replaces at least one group (RFC 4291 §2.2).
        if (tailGroups < 0 || head + tailGroups >= IPV6_GROUPS) {
            return null;
        }
        System.arraycopy(tail, 0, out, IPV6_BYTES - 2 * tailGroups, 2 * tailGroups);
        return out;
    }

    /**
     * Parses colon-separated groups of {@code s[from, to)} into {@code out} from {@code outIndex}; returns the
     * number of 16-bit groups (an IPv4 tail counts two), or -1. An empty range is zero groups.
     */
    private static int parseIpv6Groups(String s, int from, int to, byte[] out, int outIndex, boolean ipv4Tail) {
        if (from == to) {
            return 0;
        }
        int groups = 0;
        int i = from;
        while (true) {
            int start = i;
            int value = 0;
            int digit;
            while (i < to && i - start < 4 && (digit = hexValue(s.charAt(i))) >= 0) {
                value = (value << 4) | digit;
                i++;
            }
            if (i < to && s.charAt(i) == '.') {
                // The IPv4 tail: the last 32 bits, and only at the very end.
                if (!ipv4Tail || groups > IPV6_GROUPS - 2
                        || !parseIpv4(s, start, to, out, outIndex + 2 * groups)) {
                    return -1;
                }
                return groups + 2;
            }
            if (i == start || groups == IPV6_GROUPS) {
                return -1;
            }
            out[outIndex + 2 * groups] = (byte) (value >>> 8);
            out[outIndex + 2 * groups + 1] = (byte) value;
            groups++;
            if (i == to) {
                return groups;
            }
            if (s.charAt(i) != ':' || i + 1 == to) {
                return -1;
            }
            i++;
        }
    }

    /** A port of 0 to 65535 written in decimal without leading zeroes, or -1. */
    static int parsePort(String s) {
        int n = s.length();
        if (n == 0 || n > 5 || (n > 1 && s.charAt(0) == '0')) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (!isDigit(c)) {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value <= MAX_PORT ? value : -1;
    }

    /**
     * The text form of a 4- or 16-byte address: dotted quad for IPv4; for IPv6 the RFC 5952 form (lower case, no
     * leading zeroes, the longest run of two or more zero groups, the first of equal runs, written {@code ::}),
     * with an IPv4-mapped address as {@code ::ffff:} and a dotted quad (RFC 5952 §5).
     */
    static String format(byte[] address) {
        if (address.length == IPV4_BYTES) {
            return dottedQuad(address, 0);
        }
        if (isIpv4Mapped(address)) {
            return "::ffff:" + dottedQuad(address, IPV6_BYTES - IPV4_BYTES);
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int g = 0; g < IPV6_GROUPS; ) {
            if (group(address, g) != 0) {
                g++;
                continue;
            }
            int start = g;
            while (g < IPV6_GROUPS && group(address, g) == 0) {
                g++;
            }
            if (g - start > bestLength) {
                bestStart = start;
                bestLength = g - start;
            }
        }
        StringBuilder sb = new StringBuilder(39);
        for (int g = 0; g < IPV6_GROUPS; g++) {
            if (g == bestStart) {
                sb.append("::");
                g += bestLength - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            appendHex(sb, group(address, g));
        }
        return sb.toString();
    }

    private static String dottedQuad(byte[] address, int at) {
        return (address[at] & 0xFF) + "." + (address[at + 1] & 0xFF) + "." + (address[at + 2] & 0xFF) + "."
                + (address[at + 3] & 0xFF);
    }

    /** Whether a 16-byte address is {@code ::ffff:a.b.c.d}: ten zero bytes, two 0xFF bytes, an IPv4 address. */
    private static boolean isIpv4Mapped(byte[] address) {
        for (int i = 0; i < 10; i++) {
            if (address[i] != 0) {
                return false;
            }
        }
        return address[10] == (byte) 0xFF && address[11] == (byte) 0xFF;
    }

    private static int group(byte[] address, int g) {
        return (address[2 * g] & 0xFF) << 8 | (address[2 * g + 1] & 0xFF);
    }

    private static void appendHex(StringBuilder sb, int value) {
        boolean started = false;
        for (int shift = 12; shift >= 0; shift -= 4) {
            int digit = (value >>> shift) & 0xF;
            if (digit != 0 || started || shift == 0) {
                sb.append(HEX[digit]);
                started = true;
            }
        }
    }

    /** The value of an ASCII hexadecimal digit, or -1 (Character.digit would also take non-ASCII digits). */
    private static int hexValue(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
