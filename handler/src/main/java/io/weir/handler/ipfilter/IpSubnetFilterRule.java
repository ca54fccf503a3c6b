package io.weir.handler.ipfilter;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * An {@link IpFilterRule} matching one IPv4 or IPv6 subnet in CIDR notation ({@code 192.168.0.0/16},
 * {@code 2001:db8::/32}). Host bits below the prefix are cleared, so {@code 10.1.2.3/8} means
 * {@code 10.0.0.0/8}. An IPv4 rule matches only IPv4 addresses and an IPv6 rule only IPv6 addresses.
 *
 * <p>Input is validated strictly: only address literals are accepted (never a host name, so no DNS lookup
 * happens), the prefix must be {@code 0..32} for IPv4 and {@code 0..128} for IPv6, and IPv4-mapped IPv6
 * literals are refused in favour of their IPv4 form. Violations throw {@link IllegalArgumentException} naming
 * the offending input. Immutable and thread-safe.
 */
public final class IpSubnetFilterRule implements IpFilterRule, Comparable<IpSubnetFilterRule> {
    /** The longest IPv4 prefix. */
    public static final int MAX_IPV4_PREFIX_BITS = 32;
    /** The longest IPv6 prefix. */
    public static final int MAX_IPV6_PREFIX_BITS = 128;

    private final boolean ipv6;
    // The network as a 128-bit number: IPv4 in the low 32 bits of lo.
    private final long networkHi;
    private final long networkLo;
    private final long maskHi;
    private final long maskLo;
    private final int prefix;
    private final IpFilterRuleType ruleType;

    /**
     * A rule for {@code cidr}, an address literal and a prefix length separated by {@code '/'}.
     *
     * @throws IllegalArgumentException if {@code cidr} is malformed or the prefix is out of range
     */
    public IpSubnetFilterRule(String cidr, IpFilterRuleType ruleType) {
        this(addressOf(cidr), prefixOf(cidr), ruleType);
    }

    /**
     * A rule for the subnet {@code ipAddress/cidrPrefix}; {@code ipAddress} must be a literal.
     *
     * @throws IllegalArgumentException if {@code ipAddress} is not an IP literal or the prefix is out of range
     */
    public IpSubnetFilterRule(String ipAddress, int cidrPrefix, IpFilterRuleType ruleType) {
        this(parseLiteral(Objects.requireNonNull(ipAddress, "ipAddress")), cidrPrefix, ruleType);
    }

    /**
     * A rule for the subnet {@code address/cidrPrefix}.
     *
     * @throws IllegalArgumentException if the prefix is out of range for the address family
     */
    public IpSubnetFilterRule(InetAddress address, int cidrPrefix, IpFilterRuleType ruleType) {
        Objects.requireNonNull(address, "address");
        this.ruleType = Objects.requireNonNull(ruleType, "ruleType");
        byte[] bytes = address.getAddress();
        if (address instanceof Inet4Address) {
            checkPrefix(cidrPrefix, MAX_IPV4_PREFIX_BITS, address);
            ipv6 = false;
            long mask = cidrPrefix == 0 ? 0 : (0xFFFFFFFFL << (32 - cidrPrefix)) & 0xFFFFFFFFL;
            maskHi = 0;
            maskLo = mask;
            networkHi = 0;
            networkLo = ipv4ToLong(bytes) & mask;
        } else if (address instanceof Inet6Address) {
            checkPrefix(cidrPrefix, MAX_IPV6_PREFIX_BITS, address);
            ipv6 = true;
            maskHi = cidrPrefix >= 64 ? -1L : cidrPrefix == 0 ? 0 : -1L << (64 - cidrPrefix);
            maskLo = cidrPrefix <= 64 ? 0 : cidrPrefix == 128 ? -1L : -1L << (128 - cidrPrefix);
            networkHi = longAt(bytes, 0) & maskHi;
            networkLo = longAt(bytes, 8) & maskLo;
        } else {
            throw new IllegalArgumentException("unsupported address family: " + address.getClass().getName());
        }
        this.prefix = cidrPrefix;
    }

    private static void checkPrefix(int prefix, int max, InetAddress address) {
        if (prefix < 0 || prefix > max) {
            throw new IllegalArgumentException("cidrPrefix: " + prefix + " (expected: 0.." + max + " for "
                    + address.getHostAddress() + ")");
        }
    }

    private static InetAddress addressOf(String cidr) {
        Objects.requireNonNull(cidr, "cidr");
        int slash = cidr.indexOf('/');
        if (slash <= 0 || slash != cidr.lastIndexOf('/') || slash == cidr.length() - 1) {
            throw new IllegalArgumentException("cidr: \"" + cidr + "\" (expected: address/prefix, like 10.0.0.0/8)");
        }
        return parseLiteral(cidr.substring(0, slash));
    }

    private static int prefixOf(String cidr) {
        String text = cidr.substring(cidr.indexOf('/') + 1);
        if (text.length() > 3) {
            throw new IllegalArgumentException("cidr prefix: \"" + text + "\" in \"" + cidr + "\" (expected: 0..128)");
        }
        int value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("cidr prefix: \"" + text + "\" in \"" + cidr
                        + "\" (expected: a decimal number)");
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** Parses an IPv4 dotted quad or an IPv6 literal without ever resolving a host name. */
    static InetAddress parseLiteral(String text) {
        if (text.indexOf(':') >= 0) {
            InetAddress address;
            try {
                // With a ':' the JDK parses the text as an IPv6 literal and never asks DNS.
                address = InetAddress.getByName(text.startsWith("[") ? text : "[" + text + "]");
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("not an IPv6 literal: \"" + text + "\"", e);
            }
            if (address instanceof Inet4Address) {
                throw new IllegalArgumentException("IPv4-mapped IPv6 literal \"" + text
                        + "\": write the IPv4 address " + address.getHostAddress() + " instead");
            }
            return address;
        }
        byte[] bytes = parseIpv4(text);
        if (bytes == null) {
            throw new IllegalArgumentException("not an IPv4 or IPv6 literal: \"" + text + "\"");
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IPv4 literal: \"" + text + "\"", e);
        }
    }

    /** Four decimal octets 0..255 without signs or leading zeros (which some parsers read as octal). */
    private static byte[] parseIpv4(String text) {
        byte[] out = new byte[4];
        int part = 0;
        int i = 0;
        int n = text.length();
        while (part < 4) {
            int start = i;
            int value = 0;
            while (i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9' && i - start < 3) {
                value = value * 10 + (text.charAt(i) - '0');
                i++;
            }
            int digits = i - start;
            if (digits == 0 || value > 255 || digits > 1 && text.charAt(start) == '0') {
                return null;
            }
            out[part++] = (byte) value;
            if (part < 4) {
                if (i >= n || text.charAt(i) != '.') {
                    return null;
                }
                i++;
            }
        }
        return i == n ? out : null;
    }

    private static long ipv4ToLong(byte[] b) {
        return ((b[0] & 0xFFL) << 24) | ((b[1] & 0xFFL) << 16) | ((b[2] & 0xFFL) << 8) | (b[3] & 0xFFL);
    }

    private static long longAt(byte[] b, int offset) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[offset + i] & 0xFFL);
        }
        return v;
    }

    @Override
    public boolean matches(InetSocketAddress remoteAddress) {
        InetAddress address = Objects.requireNonNull(remoteAddress, "remoteAddress").getAddress();
        return address != null && matches(address);
    }

    /** Whether {@code address} lies in this subnet. */
    public boolean matches(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (ipv6) {
            return bytes.length == 16 && (longAt(bytes, 0) & maskHi) == networkHi
                    && (longAt(bytes, 8) & maskLo) == networkLo;
        }
        return bytes.length == 4 && (ipv4ToLong(bytes) & maskLo) == networkLo;
    }

    @Override
    public IpFilterRuleType ruleType() {
        return ruleType;
    }

    /** The prefix length. */
    public int cidrPrefix() {
        return prefix;
    }

    /** Whether this is an IPv6 rule. */
    public boolean isIpv6() {
        return ipv6;
    }

    boolean sameSubnet(IpSubnetFilterRule o) {
        return ipv6 == o.ipv6 && prefix == o.prefix && networkHi == o.networkHi && networkLo == o.networkLo;
    }

    /** Compares {@code (hi, lo)} masked by this rule's mask with this rule's network, as unsigned numbers. */
    int compareMasked(long hi, long lo) {
        int c = Long.compareUnsigned(networkHi, hi & maskHi);
        return c != 0 ? c : Long.compareUnsigned(networkLo, lo & maskLo);
    }

    static long hiOf(byte[] bytes) {
        return bytes.length == 16 ? longAt(bytes, 0) : 0;
    }

    static long loOf(byte[] bytes) {
        return bytes.length == 16 ? longAt(bytes, 8) : ipv4ToLong(bytes);
    }

    /**
     * Orders IPv4 before IPv6, then longer prefixes first, then by network address, then REJECT before
     * ACCEPT: the order {@link IpSubnetFilter} searches in.
     */
    @Override
    public int compareTo(IpSubnetFilterRule o) {
        if (ipv6 != o.ipv6) {
            return ipv6 ? 1 : -1;
        }
        if (prefix != o.prefix) {
            return Integer.compare(o.prefix, prefix);
        }
        int c = Long.compareUnsigned(networkHi, o.networkHi);
        if (c == 0) {
            c = Long.compareUnsigned(networkLo, o.networkLo);
        }
        return c != 0 ? c : o.ruleType.compareTo(ruleType);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IpSubnetFilterRule r && sameSubnet(r) && ruleType == r.ruleType;
    }

    @Override
    public int hashCode() {
        return Objects.hash(ipv6, networkHi, networkLo, prefix, ruleType);
    }

    @Override
    public String toString() {
        byte[] bytes;
        if (ipv6) {
            bytes = new byte[16];
            for (int i = 0; i < 8; i++) {
                bytes[i] = (byte) (networkHi >>> (56 - 8 * i));
                bytes[8 + i] = (byte) (networkLo >>> (56 - 8 * i));
            }
        } else {
            bytes = new byte[] {(byte) (networkLo >>> 24), (byte) (networkLo >>> 16), (byte) (networkLo >>> 8),
                    (byte) networkLo};
        }
        String host;
        try {
            host = InetAddress.getByAddress(bytes).getHostAddress();
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
        return host + '/' + prefix + ' ' + ruleType;
    }
}
