package io.weir.resolver.dns;

/** Which address families a host name is resolved to, and in which order they are returned. */
public enum ResolvedAddressTypes {
    /** A records only. */
    IPV4_ONLY,
    /** AAAA records only. */
    IPV6_ONLY,
    /** Both, IPv4 addresses first. */
    IPV4_PREFERRED,
    /** Both, IPv6 addresses first. */
    IPV6_PREFERRED
}
