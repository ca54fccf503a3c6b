/**
 * Weir's asynchronous DNS resolver: {@link io.weir.resolver.dns.DnsNameResolver} on Weir's own channels and
 * {@link io.weir.resolver.dns.DnsAddressResolverGroup} for {@code Bootstrap.resolver(..)}.
 */
module io.weir.resolver.dns {
    requires transitive io.weir.codec.dns;

    exports io.weir.resolver.dns;
}
