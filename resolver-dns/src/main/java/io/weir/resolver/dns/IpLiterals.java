package io.weir.resolver.dns;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Parses IP address literals without ever asking a name service. Stateless. */
final class IpLiterals {
    private static final int IPV4_PARTS = 4;
    private static final int MAX_OCTET = 255;

    private IpLiterals() {
    }

    /** The address {@code s} spells (dotted IPv4, or IPv6 with or without brackets), or {@code null}. */
    static InetAddress parse(String s) {
        if (s.indexOf(':') >= 0) {
            String v6 = s.length() > 2 && s.charAt(0) == '[' && s.charAt(s.length() - 1) == ']'
                    ? s.substring(1, s.length() - 1) : s;
            try {
                // A string with a colon is only ever parsed as an IPv6 literal by the JDK, never looked up.
                return InetAddress.getByName(v6);
            } catch (UnknownHostException | SecurityException e) {
                return null;
            }
        }
        byte[] bytes = new byte[IPV4_PARTS];
        int part = 0;
        int value = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                value = value < 0 ? c - '0' : value * 10 + (c - '0');
                if (value > MAX_OCTET) {
                    return null;
                }
            } else if (c == '.' && value >= 0 && part < IPV4_PARTS - 1) {
                bytes[part++] = (byte) value;
                value = -1;
            } else {
                return null;
            }
        }
        if (part != IPV4_PARTS - 1 || value < 0) {
            return null;
        }
        bytes[part] = (byte) value;
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException impossible) {
            return null;
        }
    }
}
